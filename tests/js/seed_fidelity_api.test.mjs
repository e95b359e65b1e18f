// Seed fidelity, API shape (seed 003 reference, SPEC §5): the exported names, the
// member list of every mailbox class, getters that are getters, error classes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as mailroom from 'mailroom';

const {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailbox, BoundedMailboxOptions, DeadLetter,
  DeadLetterQueue, DeadLetterQueueOptions, Mailbox, MailboxFullError, OptionsError, PriorityMailbox,
  PriorityMailboxOptions, Terminated, UNRANKABLE_PRIORITY,
} = mailroom;

const methods = ['enqueue', 'enqueueSignal', 'enqueueSystem', 'dequeueUser', 'dequeueSystem', 'drainUser',
  'drainSystem', 'prependUser', 'hasMessages', 'hasUserMessages', 'hasSystemMessages', 'suspend', 'resume',
  'observeDrops'];

test('every name the seeds import from the framework is exported', () => {
  // The seeds' import lines, with only the module name changed.
  for (const name of ['ActorOptions', 'Actor', 'ActorSystem', 'BoundedMailbox', 'PriorityMailbox', 'Mailbox',
    'DeadLetter', 'ActorSystemOptions', 'DeadLetterQueueOptions', 'BoundedMailboxOptions', 'DeadLetterQueue',
    'PriorityMailboxOptions', 'MailboxFullError', 'OptionsError', 'Terminated', 'UNRANKABLE_PRIORITY']) {
    assert.notEqual(mailroom[name], undefined, name);
  }
  assert.equal(typeof UNRANKABLE_PRIORITY, 'number');
});

test('each mailbox class has the whole seed member list, with size and suspended as getters', () => {
  // Seed 003: methods are methods; size, suspended, droppedCount, deadLetterDrops are properties.
  const instances = [
    new Mailbox(),
    new BoundedMailbox({ capacity: 2 }),
    new PriorityMailbox({ priorityFor: () => 0 }),
  ];
  for (const m of instances) {
    const name = m.constructor.name;
    for (const method of methods) assert.equal(typeof m[method], 'function', `${name}.${method}`);
    assert.equal(typeof m.size, 'number', `${name}.size`);
    assert.equal(typeof m.suspended, 'boolean', `${name}.suspended`);
    assert.equal(m.droppedCount, 0, `${name}.droppedCount`);
    assert.equal(m.deadLetterDrops, false, `${name}.deadLetterDrops`);
    assert.ok(m instanceof Mailbox);
  }
  assert.equal(new PriorityMailbox({ priorityFor: () => 0, deadLetterDrops: true }).deadLetterDrops, true);
});

test('error classes carry their name and the OptionsError carries family, field and value', () => {
  // `instanceof` and `.name` both identify a framework error.
  const e = (() => {
    try {
      new BoundedMailbox({ capacity: 2, overflow: 'drop-all' });
    } catch (error) {
      return error;
    }
    return null;
  })();
  assert.ok(e instanceof OptionsError && e instanceof Error);
  assert.equal(e.name, 'OptionsError');
  assert.equal(e.family, 'BoundedMailbox');
  assert.equal(e.field, 'overflow');
  assert.equal(e.value, 'drop-all');
  const full = new BoundedMailbox({ capacity: 1 });
  full.enqueue({ message: 1, sender: null });
  assert.throws(() => full.enqueue({ message: 2, sender: null }),
    (error) => error instanceof MailboxFullError && error instanceof Error && error.name === 'MailboxFullError');
});

test('option builders are structurally the settings they were given', () => {
  // A spread of a builder is the plain settings object; `create()` starts empty.
  assert.deepEqual({ ...ActorOptions.create().withMailboxCapacity(10_000).withMailboxOverflow('drop-head') },
    { mailboxCapacity: 10_000, mailboxOverflow: 'drop-head' });
  assert.deepEqual({ ...BoundedMailboxOptions.create().withCapacity(1_000).withOverflow('drop-head')
    .withDeadLetterDrops(true) }, { capacity: 1_000, overflow: 'drop-head', deadLetterDrops: true });
  assert.deepEqual({ ...DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(50)
    .withRetentionMs(1_000).withMaxReplays(1).withPersistenceId('letters') },
  { store: 'persistent', maxEntries: 50, retentionMs: 1_000, maxReplays: 1, persistenceId: 'letters' });
  assert.deepEqual({ ...PriorityMailboxOptions.create().withCapacity(2) }, { capacity: 2 });
  assert.ok(ActorSystemOptions.create() instanceof ActorSystemOptions);
});

test('framework messages are classes users can match with instanceof', async () => {
  // DeadLetter and Terminated reach actors as instances of the exported classes.
  const system = ActorSystem.create(`api-${process.pid}`);
  const seen = [];
  class Probe extends Actor {
    preStart() {
      this.system.eventStream.subscribe(this.self, DeadLetter);
    }
    onReceive(m) {
      seen.push(m);
    }
  }
  system.spawn(Probe, 'probe');
  const letter = new DeadLetter('m', null, null);
  assert.deepEqual([letter.message, letter.sender, letter.recipient], ['m', null, null]);
  assert.equal(typeof Terminated, 'function');
  assert.ok(system.deadLetterQueue instanceof DeadLetterQueue);
  await system.terminate();
});

test('ActorOptions is its settings: fresh is empty, fields are readable, the builder mutates in place', () => {
  // A spread sees only what was set; a plain object is interchangeable.
  const fresh = ActorOptions.create();
  assert.deepEqual(Object.keys(fresh), []);
  const factory = () => new Mailbox();
  const options = ActorOptions.create();
  assert.equal(options.withMailboxCapacity(7), options);
  assert.equal(options.mailboxCapacity, 7);
  assert.equal(ActorOptions.create().withMailbox(factory).mailbox, factory);
  assert.deepEqual({ ...ActorOptions.create().withMailboxCapacity(99) }, { mailboxCapacity: 99 });
});

test('a bad mailboxCapacity is an OptionsError naming ActorOptions and the field', async () => {
  // Caught at the spawn call, and the message names the family the caller wrote.
  const system = ActorSystem.create(`api-cap-${process.pid}`);
  class Quiet extends Actor {
    onReceive() {}
  }
  let n = 0;
  for (const mailboxCapacity of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    n += 1;
    assert.throws(() => system.spawn(Quiet, `q${n}`, { mailboxCapacity }), (e) => {
      assert.ok(e instanceof OptionsError, String(e));
      assert.match(e.message, /ActorOptions.*mailboxCapacity/s);
      assert.equal(e.family, 'ActorOptions');
      assert.equal(e.field, 'mailboxCapacity');
      return true;
    });
  }
  await system.terminate();
});
