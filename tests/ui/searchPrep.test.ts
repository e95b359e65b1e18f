// The idle-time builder of the payload search text: slices are capped in time
// whatever the idle deadline says, so a long queue never makes one long task.
import { describe, expect, it } from 'vitest';
import { MAX_SLICE_MS, prepareSearchWhenIdle, type IdleApi } from '../../devtools-ui/src/searchPrep';
import { run } from './scenario';

describe('prepareSearchWhenIdle', () => {
  it(`stops each idle slice after ${MAX_SLICE_MS} ms even when the deadline allows 50 ms, and finishes over several`, async () => {
    const ctx = await run(`
      letter /user/a {"email":"ada@example.com"}
      sample
    `);
    for (let i = 0; i < 3000; i++) ctx.system.deadLetter('/user/b', { n: i });
    await run('beat at=2000', ctx);
    ctx.store.emit({ type: 'view', view: 'dead-letters' });
    const queued: ((timeRemaining: () => number) => void)[] = [];
    let clock = 0;
    const idle: IdleApi = {
      request: (fn) => queued.push(fn),
      cancel: () => undefined,
      // Every look at the clock is a millisecond later: the cap is reached after a few checks.
      now: () => clock++,
    };
    const stop = prepareSearchWhenIdle(ctx.store, idle);
    let slices = 0;
    while (queued.length > 0 && slices < 1000) {
      queued.shift()!(() => 50);
      slices++;
    }
    stop();
    expect(slices).toBeGreaterThan(2);
    expect(queued.length).toBe(0);
    expect(ctx.store.deadLetters.prepareSearch(() => true)).toBe(true);
  });
});
