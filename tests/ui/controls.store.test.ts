// Panel-wide intents: pausing, hiding, sampling rate, import/export, links.
import { describe, expect, it } from 'vitest';
import { createScenario, run, type ScenarioContext } from './scenario';

/** Counts the samples the sampler takes from now on (each reads inspect() once). */
function countReads(ctx: ScenarioContext): () => number {
  let reads = 0;
  const inspect = ctx.system.inspect.bind(ctx.system);
  ctx.system.inspect = () => {
    reads++;
    return inspect();
  };
  return () => reads;
}

describe('Panel controls', () => {
  it('takes no samples while paused or hidden and resumes afterwards', async () => {
    // A paused or hidden panel costs nothing; the next beat after resuming samples again.
    const ctx = await run(`
      actor /user/a depth=1
      sample
    `);
    const reads = countReads(ctx);
    ctx.store.emit({ type: 'pause', paused: true });
    await run('beat', ctx);
    ctx.store.emit({ type: 'pause', paused: false });
    ctx.sampler.setHidden(true);
    await run('beat', ctx);
    expect(reads()).toBe(0);
    ctx.sampler.setHidden(false);
    await run('beat', ctx);
    expect(reads()).toBe(1);
  });

  it('gives way to filter typing for a moment, but samples at least once a second', async () => {
    // A keystroke never shares its frame with a sample; while typing goes on the view still refreshes.
    const ctx = await run(`
      actor /user/a depth=1
      sample at=1000
    `);
    const reads = countReads(ctx);
    ctx.clock.now = 1100;
    ctx.store.emit({ type: 'mailboxes/filter', text: 'a' });
    await run('beat at=1200', ctx);
    expect(reads()).toBe(0);
    await run('beat at=1400', ctx);
    expect(reads()).toBe(1);
    for (let t = 1500; t <= 2500; t += 100) {
      ctx.clock.now = t;
      ctx.store.emit({ type: 'dead-letters/filter', search: `q${t}` });
      await run(`beat at=${t + 50}`, ctx);
    }
    // Applied at 1400, then typing every 100 ms: the next sample waits until 2400.
    expect(reads()).toBe(2);
  });

  it('clamps the sampling rate to a sane range', () => {
    // 0 Hz would stop the panel silently; 1000 Hz would burn the page.
    const { store } = createScenario();
    store.emit({ type: 'sample-rate', hz: 0 });
    expect(store.ui.sampleHz.value).toBe(0.2);
    store.emit({ type: 'sample-rate', hz: 1000 });
    expect(store.ui.sampleHz.value).toBe(60);
  });

  it('exports the filtered views and imports them read-only', async () => {
    // Import shows exactly what was exported, stops live updates and blocks replay.
    const ctx = await run(`
      actor /user/checkout kind=bounded capacity=10 policy=reject depth=3
      actor /user/sensors
      letter /user/checkout {"kind":"order","id":1} at=1000
      letter /user/sensors {"kind":"reading"} at=2000
      sample at=3000
      mode flat
      filter path:/user/checkout
    `);
    ctx.store.emit({ type: 'dead-letters/filter', recipient: '/user/checkout' });
    const file = ctx.store.exportView(5000);
    expect(file.mailboxes.map((m) => m.path)).toEqual(['/user/checkout']);
    expect(file.deadLetters.map((e) => [e.id, e.payload])).toEqual([['1', { kind: 'captured', message: { kind: 'order', id: 1 } }]]);

    const other = createScenario();
    other.store.emit({ type: 'import', text: JSON.stringify(file), name: 'incident.json' });
    expect(other.store.ui.imported.value).toEqual({ name: 'incident.json', exportedAtMs: 5000 });
    expect(other.store.deadLetters.entries.value.map((e) => e.id)).toEqual(['1']);
    expect(other.store.mailboxes.rows.value.map((r) => r.path)).toEqual(['/user/checkout']);
    other.store.emit({ type: 'replay/prepare', id: '1', altPath: null });
    expect(other.store.replayPreview.value?.blocked).toBe('Imported data is read-only.');
    other.system.actor('/user/live');
    await run('beat', other);
    expect(other.store.mailboxes.rows.value.map((r) => r.path)).toEqual(['/user/checkout']);
  });

  it('names a broken import and keeps the current data', async () => {
    // A bad file changes nothing but the notice.
    const ctx = await run(`
      actor /user/a
      sample
    `);
    ctx.store.emit({ type: 'import', text: '{"format":"nope"}', name: 'x.json' });
    expect(ctx.store.ui.notice.value).toBe('Import failed: not a mailroom-devtools-export file');
    expect(ctx.store.ui.imported.value).toBeNull();
    expect(ctx.store.mailboxes.rows.value.map((r) => r.path)).toEqual(['/user/a']);
  });

  it('links a mailbox to its dead letters and back', async () => {
    // Cross-links switch view and set the matching filter.
    const ctx = await run(`
      actor /user/orders
      actor /user/orders/payment
      letter /user/orders/payment {"n":1}
      letter /user/other {"n":2}
      sample
    `);
    ctx.store.emit({ type: 'link/dead-letters', path: 'mailroom://scenario/user/orders' });
    expect(ctx.store.ui.view.value).toBe('dead-letters');
    await run('expect letters 1', ctx);
    ctx.store.emit({ type: 'link/mailbox', path: '/user/orders/payment' });
    expect(ctx.store.ui.view.value).toBe('mailboxes');
    expect(ctx.store.mailboxes.selectedPath.value).toBe('/user/orders/payment');
    await run('expect rows /user/orders/payment', ctx);
  });
});
