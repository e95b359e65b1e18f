// Test helpers: wait for the event-loop driver instead of sleeping.
const turn = () => new Promise((resolve) => setImmediate(resolve));

// Until the system's dispatcher has no slice scheduled (all sync work done).
export async function idle(system) {
  for (let i = 0; i < 10_000; i += 1) {
    await turn();
    if (!system._driver._scheduled) {
      await turn();
      if (!system._driver._scheduled) return;
    }
  }
  throw new Error('system did not become idle');
}

// Until cond() is true (async work: promises, timers), bounded by maxTurns.
export async function until(cond, maxTurns = 200_000) {
  for (let i = 0; i < maxTurns; i += 1) {
    if (cond()) return;
    await turn();
  }
  throw new Error('condition never became true');
}

let counter = 0;
// A system name no other test uses.
export function uniqueName(prefix = 'test') {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}
