// Dead-letter store, reducer and replay intents, driven by scenario scripts.
import { describe, expect, it } from 'vitest';
import { createScenario, run } from './scenario';

describe('Dead-letter store', () => {
  it('lists entries newest first with their message type', async () => {
    // Type is the message's kind/type tag, else its class name.
    const ctx = await run(`
      letter /user/checkout {"kind":"order","id":1} at=1000 sender=/user/client
      letter /user/checkout {"type":"refund"} at=2000
      letter /user/sensors [1,2,3] at=3000
      sample at=3500
      expect letters 3,2,1
    `);
    expect(ctx.store.deadLetters.visible.value.map((e) => e.type)).toEqual(['Array', 'refund', 'order']);
    expect(ctx.store.deadLetters.visible.value[2].senderPath).toBe('/user/client');
  });

  it('filters by recipient subtree, time window and limit', async () => {
    // The recipient filter matches the path and everything below it; the limit applies last.
    const ctx = await run(`
      letter /user/orders {"n":1} at=1000
      letter /user/orders/payment {"n":2} at=100000
      letter /user/ordersX {"n":3} at=200000
      letter /user/sensors {"n":4} at=290000
      sample at=300000
      expect letters 4,3,2,1
    `);
    ctx.store.emit({ type: 'dead-letters/filter', recipient: '/user/orders' });
    await run('expect letters 2,1', ctx);
    ctx.store.emit({ type: 'dead-letters/filter', recipient: '', window: { kind: 'last', minutes: 1 } });
    await run('expect letters 4', ctx);
    ctx.store.emit({ type: 'dead-letters/filter', window: { kind: 'range', fromMs: 50_000, toMs: 250_000 } });
    await run('expect letters 3,2', ctx);
    ctx.store.emit({ type: 'dead-letters/filter', window: { kind: 'all' }, limit: 2 });
    await run('expect letters 4,3', ctx);
  });

  it('searches inside payloads and counts matches before the limit', async () => {
    // The match counter counts every matching entry, even those the limit hides.
    const ctx = await run(`
      letter /user/a {"customer":{"email":"ada@example.com"}}
      letter /user/a {"customer":{"email":"bob@example.com"}}
      letter /user/a {"customer":{"email":"ada@example.org"}}
      sample
    `);
    ctx.store.emit({ type: 'dead-letters/filter', search: 'ADA@', limit: 1 });
    expect(ctx.store.deadLetters.matching.value.map((e) => e.id)).toEqual(['3', '1']);
    await run('expect letters 3', ctx);
  });

  it('narrows a search as it is typed and widens it again on backspace or new letters', async () => {
    // A longer query re-checks only the last matches; anything else searches every entry again.
    const ctx = await run(`
      letter /user/a {"email":"ada@example.com"}
      letter /user/a {"email":"adam@example.com"}
      letter /user/a {"email":"bob@example.com"}
      sample
    `);
    const search = (q: string) => {
      ctx.store.emit({ type: 'dead-letters/filter', search: q });
      return ctx.store.deadLetters.matching.value.map((e) => e.id);
    };
    expect(search('ad')).toEqual(['2', '1']);
    expect(search('adam')).toEqual(['2']);
    expect(search('ad')).toEqual(['2', '1']);
    expect(search('b')).toEqual(['3']);
    await run(`
      letter /user/a {"email":"bea@example.com"}
      beat at=2000
    `, ctx);
    expect(search('be')).toEqual(['4']);
    expect(search('b')).toEqual(['4', '3']);
  });

  it('decides the recipient subtree per recipient, with no entry under a half-typed path', async () => {
    // "/user/or" is no actor's path or parent: nothing matches until the segment is complete.
    const ctx = await run(`
      letter /user/orders {"n":1}
      letter mailroom://scenario/user/orders/payment {"n":2}
      letter /user/sensors {"n":3}
      sample
    `);
    const letters = (recipient: string) => {
      ctx.store.emit({ type: 'dead-letters/filter', recipient });
      return ctx.store.deadLetters.visible.value.map((e) => e.id);
    };
    expect(letters('/')).toEqual(['3', '2', '1']);
    expect(letters('/user/or')).toEqual([]);
    expect(letters('/user/orders')).toEqual(['2', '1']);
    expect(letters('mailroom://scenario/user/orders/payment')).toEqual(['2']);
    expect(letters('/user')).toEqual(['3', '2', '1']);
  });

  it('prepares the payload search text in slices and reports when every entry has it', async () => {
    // The idle-time builder stops when told and picks up where it stopped; a search then finds the same.
    const ctx = await run(`
      letter /user/a {"email":"ada@example.com"}
      sample
    `);
    for (let i = 0; i < 200; i++) ctx.system.deadLetter('/user/b', { n: i });
    await run('beat at=2000', ctx);
    let slices = 0;
    while (!ctx.store.deadLetters.prepareSearch(() => true)) slices++;
    expect(slices).toBeGreaterThan(1);
    expect(ctx.store.deadLetters.prepareSearch(() => true)).toBe(true);
    ctx.store.emit({ type: 'dead-letters/filter', search: 'ADA@' });
    expect(ctx.store.deadLetters.matching.value.map((e) => e.id)).toEqual(['1']);
  });

  it('replays to the recorded recipient and records the outcome in the attempt history', async () => {
    // replayed: the entry leaves the queue and the actor receives the message.
    const ctx = await run(`
      actor /user/checkout kind=bounded capacity=10 policy=reject
      letter /user/checkout {"kind":"order","id":7}
      sample
      replay 1
      expect attempts 1 replayed
      expect letters -
      expect delivered /user/checkout [{"kind":"order","id":7}]
    `);
    expect(ctx.store.deadLetters.evicted.value).toBe(0);
    expect(ctx.store.ui.notice.value).toBe('Replay of #1: replayed (/user/checkout)');
  });

  it('redirects to another path and keeps the entry when the target does not resolve', async () => {
    // unresolved-recipient leaves the entry in place; a redirect to a live actor delivers it.
    await run(`
      actor /user/checkout-v2
      letter /user/checkout {"kind":"order","id":8}
      sample
      replay 1
      expect attempts 1 unresolved-recipient
      expect letters 1
      replay 1 to=/user/checkout-v2
      expect attempts 1 unresolved-recipient,replayed
      expect letters -
      expect delivered /user/checkout-v2 [{"kind":"order","id":8}]
    `);
  });

  it('shows a poison letter coming back as the same entry until it is quarantined', async () => {
    // Each failed replay returns the same id with replayCount + 1; once quarantined the panel refuses to send it.
    await run(`
      actor /user/poison
      fail-replays /user/poison
      letter /user/poison {"kind":"poison"}
      sample
      replay 1
      replay 1
      expect letter 1 replayCount=2 quarantined=true
      expect blocked 1 Quarantined: already replayed 2 times (max-replays 2)
      replay 1
      expect attempts 1 replayed,replayed
      expect letters 1
    `, createScenario({ maxReplays: 2 }));
  });

  it('names a rejected outcome, refuses a degraded entry before sending, and keeps both entries', async () => {
    // A full reject mailbox refuses the replay; a degraded entry has nothing to send, so Replay is off with the reason.
    await run(`
      actor /user/checkout kind=bounded capacity=1 policy=reject depth=1
      letter /user/checkout {"kind":"order"}
      degraded /user/checkout class=Function reason=functions-are-not-serializable
      sample
      replay 1
      expect blocked 2 Degraded entry: only its origin was kept (Function: functions-are-not-serializable)
      replay 2
      expect attempts 1 rejected
      expect attempts 2 -
      expect letters 2,1
    `);
  });

  it('previews the target with resolution, mailbox kind and headroom', async () => {
    // The preview comes from the latest snapshot, before anything is sent.
    const ctx = await run(`
      actor /user/checkout-v2 kind=bounded capacity=10 policy=drop-new depth=4
      letter /user/checkout {"kind":"order"}
      sample
    `);
    ctx.store.emit({ type: 'replay/prepare', id: '1', altPath: null });
    expect(ctx.store.replayPreview.value).toMatchObject({ target: '/user/checkout', resolves: false, headroom: null, blocked: null });
    ctx.store.emit({ type: 'replay/target', altPath: '/user/checkout-v2' });
    expect(ctx.store.replayPreview.value).toMatchObject({
      target: '/user/checkout-v2',
      redirect: true,
      resolves: true,
      mailboxKind: 'bounded',
      headroom: 6,
      warning: null,
    });
  });

  it('sends nothing when replay is not allowed', async () => {
    // Without allowReplay the intent is ignored: no attempt, no delivery.
    const ctx = await run(`
      actor /user/checkout
      letter /user/checkout {"kind":"order"}
      sample
      replay 1
      expect letters 1
      expect delivered /user/checkout []
    `, createScenario({}, false));
    expect(ctx.store.deadLetters.attempts.value.size).toBe(0);
  });

  it('counts entries that left the ring as evicted since the panel opened', async () => {
    // The memory store is a bounded ring; entries pushed out count as evicted.
    const ctx = await run(`
      letter /user/a {"n":1}
      letter /user/a {"n":2}
      sample
      letter /user/a {"n":3}
      letter /user/a {"n":4}
      sample
      expect letters 4,3
    `, createScenario({ maxEntries: 2 }));
    expect(ctx.store.deadLetters.evicted.value).toBe(2);
  });

  it('keeps no entries and lists nothing when the store is metrics', async () => {
    // metrics counts but keeps no payload; the view shows the empty state instead.
    const ctx = await run(`
      letter /user/a {"n":1}
      sample
      expect letters -
    `, createScenario({ store: 'metrics' }));
    expect(ctx.store.deadLetters.settings.value?.store).toBe('metrics');
  });
});

describe('Dead-letter sampling', () => {
  it('reads only new letters between full reads and merges them newest first', async () => {
    // A push event triggers a sinceMs read; the merge keeps order and ids unique.
    const ctx = await run(`
      letter /user/a {"n":1} at=1000
      letter /user/a {"n":2} at=1000
      sample at=1000
      letter /user/a {"n":3} at=2000
      beat at=2000
      expect letters 3,2,1
    `);
    const lists: unknown[] = [];
    const original = ctx.system.deadLetterQueue.list;
    ctx.system.deadLetterQueue.list = (filter) => {
      lists.push(filter);
      return original(filter);
    };
    await run(`
      letter /user/a {"n":4} at=3000
      beat at=3000
      expect letters 4,3,2,1
      beat at=3500
    `, ctx);
    expect(lists).toEqual([{ sinceMs: 2000 }]);
  });

  it('applies the ring bound locally when merging and counts what fell out', async () => {
    // Beyond max-entries the oldest entries leave the list and count as evicted.
    const ctx = await run(`
      letter /user/a {"n":1} at=1000
      letter /user/a {"n":2} at=1100
      letter /user/a {"n":3} at=1200
      sample at=1200
      letter /user/a {"n":4} at=2000
      beat at=2000
      expect letters 4,3,2
    `, createScenario({ maxEntries: 3 }));
    expect(ctx.store.deadLetters.evicted.value).toBe(1);
  });
});

describe('Frame batching', () => {
  it('applies every sample taken before a frame, so no letters read in between are lost', async () => {
    // Two beats land before one frame: both samples apply (two history points, the new letter kept).
    const { FakeSystem } = await import('../../devtools-ui/src/testing/fakeSystem');
    const { createStore } = await import('../../devtools-ui/src/store');
    const { createSystemSource } = await import('../../devtools-ui/src/source/systemSource');
    const { createSampler } = await import('../../devtools-ui/src/sampler');
    const clock = { now: 1000 };
    const system = new FakeSystem('frames', {}, () => clock.now);
    system.actor('/user/a', { userDepth: 1 });
    const store = createStore();
    let timer: () => void = () => undefined;
    const frames: (() => void)[] = [];
    const sampler = createSampler(store, createSystemSource(system, { deadLetterType: 'DL', now: () => clock.now }), {
      setInterval: (fn) => ((timer = fn), 0),
      clearInterval: () => undefined,
      requestFrame: (fn) => frames.push(fn),
      now: () => clock.now,
    });
    await sampler.tick();
    system.deadLetter('/user/a', { n: 1 });
    clock.now = 1250;
    timer();
    await sampler.whenIdle();
    system.actor('/user/a', { userDepth: 5 });
    clock.now = 1500;
    timer();
    await sampler.whenIdle();
    expect(frames.length).toBe(1);
    frames.shift()!();
    expect(store.deadLetters.entries.value.map((e) => e.id)).toEqual(['1']);
    expect(store.mailboxes.rows.value[0].history).toEqual([1, 1, 5]);
  });
});
