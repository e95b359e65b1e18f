// Mailboxes from JS (seed 000 and 003, SPEC §3): options, BoundedMailbox,
// PriorityMailbox, the member list on a mailbox no actor owns, a JS subclass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, BoundedMailbox, BoundedMailboxOptions, DeadLetter, Mailbox,
  MailboxFullError, OptionsError, PoisonPill, PriorityMailbox, UNRANKABLE_PRIORITY,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

class Recorder extends Actor {
  static log = [];
  onReceive(m) {
    Recorder.log.push(m);
  }
}

test('SensorSink with capacity and drop-head keeps the newest readings', async () => {
  // withMailboxCapacity + withMailboxOverflow('drop-head'): the oldest queued reading goes.
  const system = ActorSystem.create(uniqueName());
  const got = [];
  class SensorSink extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }
  const sensorOptions = ActorOptions.create().withMailboxCapacity(3).withMailboxOverflow('drop-head');
  const sink = system.spawn(SensorSink, 'sensors', sensorOptions);
  for (let i = 1; i <= 6; i += 1) sink.tell(i);
  await idle(system);
  assert.deepEqual(got, [4, 5, 6]);
  const row = system.inspect().find((r) => r.path === '/user/sensors');
  assert.equal(row.dropped, 3);
  assert.equal(row.mailboxKind, 'bounded');
  assert.equal(row.capacity, 3);
  assert.equal(row.overflow, 'drop-head');
  assert.match(system.metrics.scrape(), /actor_mailbox_dropped_total\{[^}]*policy="drop-head"[^}]*\} 3/);
  await system.terminate();
});

test('withMailboxOverflow defaults to drop-head and drop-new keeps the first arrivals', async () => {
  // Capacity alone bounds with drop-head; drop-new discards arrivals.
  const system = ActorSystem.create(uniqueName());
  const got = { a: [], b: [] };
  class A extends Actor {
    onReceive(m) {
      got.a.push(m);
    }
  }
  class B extends Actor {
    onReceive(m) {
      got.b.push(m);
    }
  }
  const a = system.spawn(A, 'a', ActorOptions.create().withMailboxCapacity(2));
  const b = system.spawn(B, 'b', ActorOptions.create().withMailboxCapacity(2).withMailboxOverflow('drop-new'));
  for (let i = 1; i <= 4; i += 1) {
    a.tell(i);
    b.tell(i);
  }
  await idle(system);
  assert.deepEqual(got, { a: [3, 4], b: [1, 2] });
  await system.terminate();
});

test('a reject mailbox throws MailboxFullError at the tell call site', async () => {
  // The sender carries the backpressure; nothing is counted as dropped.
  const system = ActorSystem.create(uniqueName());
  const ref = system.spawn(Recorder, 'checkout', ActorOptions.create()
    .withMailbox(() => new BoundedMailbox({ capacity: 2 })));
  ref.tell('1');
  ref.tell('2');
  assert.throws(() => ref.tell('3'), (e) => e instanceof MailboxFullError && /checkout/.test(e.message));
  await system.terminate();
});

test('option combinations the seed refuses are OptionsErrors at spawn', async () => {
  // Policy without capacity, withMailbox with capacity, one mailbox from two factories.
  const system = ActorSystem.create(uniqueName());
  assert.throws(() => system.spawn(Recorder, 'p', ActorOptions.create().withMailboxOverflow('drop-new')),
    (e) => e instanceof OptionsError && e.field === 'mailboxOverflow');
  assert.throws(() => system.spawn(Recorder, 'q', ActorOptions.create()
    .withMailbox(() => new Mailbox()).withMailboxCapacity(5)), OptionsError);
  assert.throws(() => ActorOptions.create().withMailboxCapacity('10'), OptionsError);
  assert.throws(() => system.spawn(Recorder, 'r', ActorOptions.create().withMailboxCapacity(0)),
    (e) => e instanceof OptionsError && e.field === 'mailboxCapacity' && e.family === 'ActorOptions');
  const shared = new BoundedMailbox({ capacity: 100 });
  system.spawn(Recorder, 'a', ActorOptions.create().withMailbox(() => shared));
  assert.throws(() => system.spawn(Recorder, 'b', ActorOptions.create().withMailbox(() => shared)),
    (e) => e instanceof OptionsError && e.field === 'mailbox');
  assert.throws(() => system.spawn(Recorder, 'c', ActorOptions.create().withMailbox(() => 'nope')),
    OptionsError);
  await system.terminate();
});

test('BoundedMailbox validates its options with OptionsError naming field and value', () => {
  // Missing / non-positive capacity, unknown policy, drop-lowest-priority, wrong types.
  const bad = [
    [{}, 'capacity'],
    [{ capacity: 0 }, 'capacity'],
    [{ capacity: -1 }, 'capacity'],
    [{ capacity: 1.5 }, 'capacity'],
    [{ capacity: 10, overflow: 'drop-oldest' }, 'overflow'],
    [{ capacity: 10, overflow: 'drop-lowest-priority' }, 'overflow'],
    [{ capacity: '10' }, 'capacity'],
  ];
  for (const [options, field] of bad) {
    assert.throws(() => new BoundedMailbox(options), (e) =>
      e instanceof OptionsError && e.family === 'BoundedMailbox' && e.field === field, JSON.stringify(options));
  }
  const e = (() => {
    try {
      return new BoundedMailbox({ capacity: 10, overflow: 'drop-oldest' });
    } catch (error) {
      return error;
    }
  })();
  assert.equal(e.value, 'drop-oldest');
  assert.throws(() => new BoundedMailbox(null), TypeError);
});

test('BoundedMailbox on its own: reject by default, the member list, envelopes keep identity', () => {
  // Usable with no actor; dequeued envelopes carry the very message objects.
  const mailbox = new BoundedMailbox({ capacity: 2 });
  const first = { n: 1 };
  mailbox.enqueue({ message: first, sender: null });
  mailbox.enqueue({ message: { n: 2 }, sender: null });
  assert.throws(() => mailbox.enqueue({ message: { n: 3 }, sender: null }), MailboxFullError);
  assert.equal(mailbox.droppedCount, 0);
  assert.equal(mailbox.size, 2);
  assert.equal(mailbox.hasUserMessages(), true);
  assert.equal(mailbox.hasSystemMessages(), false);
  mailbox.enqueueSystem({ message: 'sys', sender: null });
  assert.equal(mailbox.hasSystemMessages(), true);
  assert.equal(mailbox.hasMessages(), true);
  assert.equal(mailbox.dequeueSystem().message, 'sys');
  const envelope = mailbox.dequeueUser();
  assert.equal(envelope.message, first);
  assert.equal(envelope.sender, null);
  mailbox.prependUser([envelope]);
  assert.deepEqual(mailbox.drainUser().map((e) => e.message.n), [1, 2]);
  assert.equal(mailbox.dequeueUser(), undefined);
  assert.deepEqual(mailbox.drainSystem(), []);
  mailbox.suspend();
  assert.equal(mailbox.suspended, true);
  mailbox.resume();
  assert.equal(mailbox.suspended, false);
  assert.equal(mailbox.deadLetterDrops, false);
});

test('enqueueSignal bypasses the capacity under every policy', () => {
  // Death notifications are never shed.
  const mailbox = new BoundedMailbox({ capacity: 1, overflow: 'drop-new' });
  mailbox.enqueue({ message: 'a', sender: null });
  mailbox.enqueueSignal({ message: 'terminated', sender: null });
  assert.equal(mailbox.size, 2);
  assert.equal(mailbox.droppedCount, 0);
});

test('observeDrops is additive and sees the reason and the envelope discarded', () => {
  // onDrop from the options fires alongside observers added later.
  const seen = [];
  const mailbox = new BoundedMailbox(BoundedMailboxOptions.create()
    .withCapacity(1).withOverflow('drop-head').withOnDrop((reason, env) => seen.push(['onDrop', reason, env.message])));
  mailbox.observeDrops((reason, env) => seen.push(['observer', reason, env.message]));
  const oldest = { id: 'oldest' };
  mailbox.enqueue({ message: oldest, sender: null });
  mailbox.enqueue({ message: 'newest', sender: null });
  assert.deepEqual(seen, [['onDrop', 'drop-head', oldest], ['observer', 'drop-head', oldest]]);
  assert.equal(seen[0][2], oldest);
  assert.equal(mailbox.droppedCount, 1);
  const dropNew = new BoundedMailbox({ capacity: 1, overflow: 'drop-new' });
  const reasons = [];
  dropNew.observeDrops((reason, env) => reasons.push([reason, env.message]));
  dropNew.enqueue({ message: 1, sender: null });
  dropNew.enqueue({ message: 2, sender: null });
  assert.deepEqual(reasons, [['drop-new', 2]]);
});

test('deadLetterDrops turns drops into DeadLetters naming the intended recipient', async () => {
  // BoundedMailboxOptions.withDeadLetterDrops(true), as in the dead-letters seed.
  const system = ActorSystem.create(uniqueName());
  const letters = [];
  system.eventStream.subscribe((l) => letters.push([l.message, l.recipient.path]), DeadLetter);
  const shedding = BoundedMailboxOptions.create().withCapacity(1).withOverflow('drop-head').withDeadLetterDrops(true);
  const ref = system.spawn(Recorder, 'worker', ActorOptions.create().withMailbox(() => new BoundedMailbox(shedding)));
  ref.tell('a');
  ref.tell('b');
  await idle(system);
  assert.deepEqual(letters, [['a', ref.path]]);
  await system.terminate();
});

test('Triage/Worker with a PriorityMailbox processes urgent → normal → bulk', async () => {
  // The seed example; ties keep send order.
  const system = ActorSystem.create(uniqueName());
  const order = [];
  class Worker extends Actor {
    onReceive(message) {
      order.push(`[${message.kind}] ${message.text}`);
    }
  }
  const workerOptions = ActorOptions.create().withMailbox(() => new PriorityMailbox({
    priorityFor: (message) => (message.kind === 'urgent' ? 0 : message.kind === 'normal' ? 5 : 10),
  }));
  const worker = system.spawn(Worker, 'worker', workerOptions);
  worker.tell({ kind: 'bulk', text: 'batch import row 1' });
  worker.tell({ kind: 'normal', text: 'user login' });
  worker.tell({ kind: 'urgent', text: 'page-out: disk full' });
  worker.tell({ kind: 'normal', text: 'user logout' });
  await idle(system);
  assert.deepEqual(order, [
    '[urgent] page-out: disk full', '[normal] user login', '[normal] user logout', '[bulk] batch import row 1',
  ]);
  await system.terminate();
});

test('priorityFor throwing or returning a non-number ranks the message UNRANKABLE_PRIORITY', () => {
  // The message keeps its place behind every ranked one instead of failing the send.
  assert.equal(UNRANKABLE_PRIORITY, Number.MAX_SAFE_INTEGER);
  const errors = [];
  const mailbox = new PriorityMailbox({
    priorityFor: (m) => {
      if (m === 'throws') throw new Error('no rank');
      return m === 'nan' ? 'x' : m;
    },
    onPriorityError: (error) => errors.push(error.message),
  });
  for (const m of ['throws', 5, 'nan', 1]) mailbox.enqueue({ message: m, sender: null });
  assert.deepEqual(mailbox.drainUser().map((e) => e.message), [1, 5, 'throws', 'nan']);
  assert.deepEqual(errors, ['no rank', 'priorityFor must return a number, got type string']);
  mailbox.enqueue({ message: PoisonPill.instance, sender: null });
  assert.equal(mailbox.dequeueUser().message, PoisonPill.instance);
});

test('a bounded PriorityMailbox sheds the least important message', () => {
  // drop-lowest-priority: drop-new when the arrival is the least important, else drop-head.
  const reasons = [];
  const mailbox = new PriorityMailbox({ priorityFor: (m) => m, capacity: 2, overflow: 'drop-lowest-priority' });
  mailbox.observeDrops((reason, env) => reasons.push([reason, env.message]));
  mailbox.enqueue({ message: 5, sender: null });
  mailbox.enqueue({ message: 1, sender: null });
  mailbox.enqueue({ message: 9, sender: null });
  mailbox.enqueue({ message: 0, sender: null });
  assert.deepEqual(reasons, [['drop-new', 9], ['drop-head', 5]]);
  assert.deepEqual(mailbox.drainUser().map((e) => e.message), [0, 1]);
  assert.throws(() => new PriorityMailbox({ priorityFor: (m) => m, capacity: 2, overflow: 'drop-head' }), OptionsError);
  assert.throws(() => new PriorityMailbox({ priorityFor: 'nope' }), OptionsError);
  assert.throws(() => new PriorityMailbox({}), OptionsError);
});

test('the seed SheddingMailbox subclass works through withMailbox and reports its drops', async () => {
  // A JS subclass overriding enqueue (calling super.enqueue) with its own observeDrops.
  const system = ActorSystem.create(uniqueName());
  class SheddingMailbox extends Mailbox {
    observers = [];
    accepted = 0;
    observeDrops(observer) {
      this.observers.push(observer);
    }
    shouldShed() {
      return this.size >= 2;
    }
    enqueue(envelope) {
      if (this.shouldShed()) {
        for (const observer of this.observers) observer('drop-new');
        return;
      }
      this.accepted += 1;
      super.enqueue(envelope);
    }
  }
  const got = [];
  class Slow extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }
  let mailbox;
  const ref = system.spawn(Slow, 'slow', ActorOptions.create().withMailbox(() => {
    mailbox = new SheddingMailbox();
    return mailbox;
  }));
  for (let i = 1; i <= 5; i += 1) ref.tell(i);
  await idle(system);
  assert.deepEqual(got, [1, 2]);
  assert.equal(mailbox.accepted, 2);
  assert.equal(mailbox.observers.length, 1);  // the cell registered its observer
  assert.match(system.metrics.scrape(), /actor_mailbox_dropped_total\{[^}]*policy="drop-new"[^}]*\} 3/);
  const row = system.inspect().find((r) => r.path === '/user/slow');
  assert.equal(row.mailboxKind, 'SheddingMailbox');
  await system.terminate();
});

test('the plain Mailbox base class is an unbounded FIFO usable without an actor', () => {
  // Never drops; observeDrops exists and never fires.
  const mailbox = new Mailbox();
  let drops = 0;
  mailbox.observeDrops(() => (drops += 1));
  for (let i = 0; i < 1000; i += 1) mailbox.enqueue({ message: i, sender: null });
  assert.equal(mailbox.size, 1000);
  assert.equal(mailbox.droppedCount, 0);
  assert.equal(drops, 0);
  assert.throws(() => mailbox.enqueue('not an envelope'), TypeError);
  assert.throws(() => mailbox.enqueue({ message: 1, sender: 'me' }), TypeError);
});
