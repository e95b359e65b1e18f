// The panel benchmark's load on the live demo (index.html?bench=N[&letters=M]): N live
// actors under /user/load (a few get a message every 100 ms, so depths and counters move),
// and the persistent queue filled up to its max-entries with letters addressed to
// /user/orders/... (no-recipient: nobody lives there). Off unless asked for.
import { Actor, type ActorRef, type ActorSystem } from 'mailroom';

/** The demo's own cap: what a person exploring the demo keeps across reloads. */
export const DEMO_MAX_ENTRIES = 5_000;
/** The most a benchmark may ask for (?bench=N&letters=M). */
export const BENCH_MAX_LETTERS = 1_000_000;
/** Letters told per slice of the fill (~6-7 µs each into the persistent queue): one slice stays well under a frame's worth of a 50 ms budget. */
const FILL_SLICE = 2_000;

/**
 * The queue's max-entries: the demo's 5,000, or `letters` when the page runs the panel
 * benchmark (`?bench=N&letters=M`). A `letters` that is not a whole number in 1..1,000,000 is refused by name.
 */
export function demoMaxEntries(params: URLSearchParams): number {
  if (!params.has('bench') || !params.has('letters')) return DEMO_MAX_ENTRIES;
  const raw = params.get('letters') ?? '';
  const n = Number(raw);
  if (!/^[0-9]+$/.test(raw) || !Number.isSafeInteger(n) || n < 1 || n > BENCH_MAX_LETTERS) {
    throw new RangeError(`?letters must be a whole number from 1 to ${BENCH_MAX_LETTERS.toLocaleString('en-US')}, got "${raw}"`);
  }
  return n;
}

class LoadActor extends Actor {
  onReceive(_tick: unknown) {}
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Stops the load; resolves once the fill has stopped telling, so a shutdown after it sees no new letters. */
export type StopLoad = () => Promise<void>;

export async function loadForBench(system: ActorSystem, actors: number, started?: (stop: StopLoad) => void): Promise<StopLoad> {
  let stopped = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let filling: Promise<void> = Promise.resolve();
  // Registered before the fill, so a restart during the fill stops it too: every tick the
  // timer sends to an actor that terminate() has stopped would become a dead letter and
  // push the oldest restored letters out of a full queue (the stage-60 reload flake).
  const stop: StopLoad = async () => {
    stopped = true;
    clearInterval(timer);
    await filling;
  };
  started?.(stop);
  const refs: ActorRef[] = [];
  for (let i = 0; i < actors; i++) refs.push(system.spawn(LoadActor, `load-${i}`));
  filling = (async () => {
    const want = system.deadLetterQueue.settings.maxEntries;
    const have = (await system.deadLetterQueue.list()).length;
    for (let i = have; i < want && !stopped; ) {
      const end = Math.min(want, i + FILL_SLICE);
      for (; i < end; i++) {
        system.actorSelection(`/user/orders/region-${i % 7}/order-${i}`).tell({ order: i, customer: `user${i % 500}@example.com`, lines: [{ sku: `sku-${i % 97}`, qty: 1 + (i % 3) }] });
      }
      await nextTask();
    }
  })();
  await filling;
  if (stopped) return stop;
  let turn = 0;
  timer = setInterval(() => {
    for (let k = 0; k < 50; k++) refs[(turn * 50 + k) % refs.length]?.tell({ tick: turn });
    turn++;
  }, 100);
  return stop;
}
