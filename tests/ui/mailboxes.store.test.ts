// Mailbox store and reducer, driven by scenario scripts against the fake system.
import { describe, expect, it } from 'vitest';
import { createScenario, run } from './scenario';

/** Two actors in flat mode, deepest first. */
const SORTED_BY_DEPTH = `
  actor /user/a depth=1
  actor /user/b depth=2
  sample
  mode flat
  sort userDepth
  expect rows /user/b,/user/a
`;
/** A sample after which /user/a should come first, and a new actor /user/c appears; held rows stay put. */
const A_OVERTAKES_B = `
  actor /user/a depth=10
  actor /user/c depth=5
  sample
  expect rows /user/b,/user/a,/user/c
`;

describe('Mailboxes store', () => {
  it('derives fill, dropped delta and the depth history from successive samples', async () => {
    // Each sample appends one depth; dropped delta is the change since the previous sample.
    await run(`
      actor /user/sensors class=SensorSink kind=bounded capacity=100 policy=drop-head depth=50
      sample at=1000
      actor /user/sensors depth=90 dropped=3 processed=40
      sample at=1250
      expect row /user/sensors fill=0.9 droppedDelta=3 processedRate=160 history=50,90
      actor /user/sensors depth=100 dropped=3 processed=40
      sample at=1500
      expect row /user/sensors fill=1 droppedDelta=0 processedRate=0 history=50,90,100
    `);
  });

  it('keeps only the last 60 depth samples per actor', async () => {
    // The sparkline window is 60 samples: older ones fall off the front.
    const ctx = createScenario();
    let script = 'actor /user/a\n';
    for (let i = 1; i <= 65; i++) script += `actor /user/a depth=${i}\nsample at=${1000 + i * 250}\n`;
    await run(script, ctx);
    const history = ctx.store.mailboxes.rows.value[0].history;
    expect(history.length).toBe(60);
    expect(history[0]).toBe(6);
    expect(history[59]).toBe(65);
  });

  it('orders the tree depth-first with children under their parents', async () => {
    // Tree mode nests by path; siblings follow the sort (path ascending by default).
    await run(`
      actor /user/orders
      actor /user/sensors
      actor /user/orders/payment
      actor /user/orders/audit
      actor /system/deadLetters
      sample
      expect rows /system/deadLetters,/user/orders,/user/orders/audit,/user/orders/payment,/user/sensors
      expect row /user/orders level=0
    `);
  });

  it('filters by path glob, kind, policy, dropped and suspended tokens together', async () => {
    // All clauses must hold; ** matches the path itself and every descendant.
    await run(`
      actor /user/orders kind=bounded capacity=10 policy=reject
      actor /user/orders/payment kind=bounded capacity=10 policy=drop-head dropped=4
      actor /user/orders/audit kind=unbounded suspended=true
      actor /user/sensors kind=bounded capacity=10 policy=drop-head dropped=9
      sample
      mode flat
      filter path:/user/orders/**
      expect rows /user/orders,/user/orders/audit,/user/orders/payment
      filter path:/user/orders/** kind:bounded policy:drop-head dropped>0
      expect rows /user/orders/payment
      filter suspended:true
      expect rows /user/orders/audit
      filter -kind:bounded
      expect rows /user/orders/audit
      filter sensors
      expect rows /user/sensors
      filter path:/user/*
      expect rows /user/orders,/user/sensors
    `);
  });

  it('sorts by fill ratio descending, unbounded mailboxes last', async () => {
    // Fill is depth/capacity; unbounded has no fill and sorts below every bounded row.
    const ctx = await run(`
      actor /user/a kind=bounded capacity=100 depth=10
      actor /user/b kind=bounded capacity=10 depth=9
      actor /user/c kind=unbounded depth=5000
      sample
      mode flat
      sort fill
      expect rows /user/b,/user/a,/user/c
      sort fill
      expect rows /user/c,/user/a,/user/b
    `);
    expect(ctx.store.mailboxes.sort.value).toEqual({ key: 'fill', dir: 'asc' });
  });

  it('sorts by growth so the fastest-filling mailbox comes first', async () => {
    // Growth is the depth change per second over the recent samples.
    await run(`
      actor /user/steady depth=100
      actor /user/rising depth=0
      sample at=1000
      actor /user/rising depth=50
      sample at=2000
      mode flat
      sort growth
      expect rows /user/rising,/user/steady
      expect row /user/rising growth=50
    `);
  });

  it('freezes the displayed order while hovered and resumes it afterwards', async () => {
    // Rows do not jump under the cursor: a reorder waits until the freeze ends.
    const ctx = await run(SORTED_BY_DEPTH);
    ctx.store.emit({ type: 'mailboxes/freeze', on: true });
    await run(A_OVERTAKES_B, ctx);
    ctx.store.emit({ type: 'mailboxes/freeze', on: false });
    await run('expect rows /user/a,/user/c,/user/b', ctx);
  });

  it('holds the displayed order while a row is selected and resumes once Esc releases it', async () => {
    // A selected mailbox does not jump away on a sample; a sort the user asks for still applies, then holds.
    const ctx = await run(SORTED_BY_DEPTH);
    ctx.store.emit({ type: 'mailboxes/select', path: '/user/a' });
    await run(A_OVERTAKES_B, ctx);
    // Moving the pointer over the list and away does not release a selection's hold.
    ctx.store.emit({ type: 'mailboxes/freeze', on: true });
    ctx.store.emit({ type: 'mailboxes/freeze', on: false });
    await run(`
      expect rows /user/b,/user/a,/user/c
      sort userDepth
      expect rows /user/b,/user/c,/user/a
      actor /user/b depth=50
      sample
      expect rows /user/b,/user/c,/user/a
    `, ctx);
    ctx.store.emit({ type: 'close' });
    expect(ctx.store.mailboxes.selectedPath.value).toBeNull();
    await run('expect rows /user/c,/user/a,/user/b', ctx);
  });

  it('drops a stopped actor from the rows on the next sample', async () => {
    // A row exists exactly as long as inspect() lists the actor.
    await run(`
      actor /user/a
      actor /user/b
      sample
      stop /user/a
      sample
      expect rows /user/b
    `);
  });

  it('reports filter mistakes by name and ignores only the bad token', async () => {
    // An unknown key is an error shown to the user, the rest of the filter still applies.
    const ctx = await run(`
      actor /user/a kind=bounded capacity=1
      actor /user/b
      sample
      mode flat
      filter kind:bounded colour:red
      expect rows /user/a
    `);
    expect(ctx.store.mailboxes.parsedFilter.value.errors).toEqual(['unknown filter key "colour"']);
  });
});
