// The module as a package: ready at import, the option builders of the seeds,
// the event stream, size warnings, metrics and inspection as plain objects.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as mailroom from 'mailroom';
import {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailboxOptions, DeadLetterQueueOptions,
  LogEvent, MailboxSizeWarning, OptionsError, Terminated,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

test('importing mailroom is enough: the API is usable synchronously', async () => {
  // Top-level await finished loading the wasm before the import resolved.
  for (const name of ['ActorSystem', 'Actor', 'ActorOptions', 'BoundedMailbox', 'PriorityMailbox', 'Mailbox',
    'DeadLetter', 'Terminated', 'MailboxFullError', 'OptionsError', 'StashOverflowError', 'UNRANKABLE_PRIORITY',
    'ActorSystemOptions', 'DeadLetterQueueOptions', 'BoundedMailboxOptions']) {
    assert.ok(name in mailroom, name);
  }
  const system = ActorSystem.create(uniqueName());
  assert.equal(typeof system.metrics.scrape(), 'string');
  await system.terminate();
});

test('option builders record fields fluently, like the seed framework', () => {
  // Each with... returns the builder; plain objects are accepted too.
  const sensorOptions = ActorOptions.create().withMailboxCapacity(10_000).withMailboxOverflow('drop-head');
  assert.deepEqual(sensorOptions.toJSON(), { mailboxCapacity: 10_000, mailboxOverflow: 'drop-head' });
  const dl = DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(5_000)
    .withRetentionMs(6 * 60 * 60 * 1_000).withMaxReplays(3).withPersistenceId('orders-dl');
  assert.deepEqual(dl.toJSON(), {
    store: 'persistent', maxEntries: 5_000, retentionMs: 21_600_000, maxReplays: 3, persistenceId: 'orders-dl',
  });
  const bounded = BoundedMailboxOptions.create().withCapacity(1_000).withOverflow('drop-head').withDeadLetterDrops(true);
  assert.deepEqual(bounded.toJSON(), { capacity: 1_000, overflow: 'drop-head', deadLetterDrops: true });
  assert.ok(ActorSystemOptions.create().withDeadLetters(dl).withConfig('a = 1') instanceof ActorSystemOptions);
  assert.throws(() => ActorSystemOptions.create().withDeadLetters(null), OptionsError);
  assert.throws(() => ActorOptions.create().withMailbox('not a factory'),
    (e) => e instanceof OptionsError && e.field === 'mailbox' && e.family === 'ActorOptions');
  assert.throws(() => DeadLetterQueueOptions.create().withStore(3), OptionsError);
});

test('a plain options object is accepted wherever a builder is', async () => {
  // { mailboxCapacity, mailboxOverflow } and { deadLetters: { store } }.
  const system = ActorSystem.create(uniqueName(), { deadLetters: { store: 'memory' } });
  const got = [];
  class A extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }
  const ref = system.spawn(A, 'a', { mailboxCapacity: 1, mailboxOverflow: 'drop-new' });
  ref.tell(1);
  ref.tell(2);
  await idle(system);
  assert.deepEqual(got, [1]);
  assert.equal(system.deadLetterQueue.settings.store, 'memory');
  await system.terminate();
});

test('event stream functions subscribe and unsubscribe by class; JS classes can be published', async () => {
  // Framework classes come from the core; other classes are matched with instanceof.
  const system = ActorSystem.create(uniqueName());
  class PriceChanged {
    constructor(price) {
      this.price = price;
    }
  }
  const seen = [];
  const onTerminated = (t) => seen.push(['terminated', t.actor.path]);
  const onPrice = (e) => seen.push(['price', e.price]);
  assert.equal(system.eventStream.subscribe(onPrice, PriceChanged), true);
  system.eventStream.subscribe(onTerminated, Terminated);
  system.eventStream.publish(new PriceChanged(3));
  system.eventStream.publish({ price: 4 });  // not a PriceChanged
  assert.equal(system.eventStream.unsubscribe(onPrice), true);
  system.eventStream.publish(new PriceChanged(5));
  assert.deepEqual(seen, [['price', 3]]);
  assert.throws(() => system.eventStream.subscribe('x', PriceChanged), TypeError);
  assert.throws(() => system.eventStream.subscribe(onPrice, 'PriceChanged'), TypeError);
  await system.terminate();
});

test('an unbounded mailbox reaching 10,000 publishes a MailboxSizeWarning', async () => {
  // Growth is something you learn about: the warning names the actor and the size.
  const system = ActorSystem.create(uniqueName());
  const warnings = [];
  const logs = [];
  system.eventStream.subscribe((w) => warnings.push([w.path, w.size]), MailboxSizeWarning);
  system.eventStream.subscribe((e) => logs.push(e.level), LogEvent);
  class Idle extends Actor {
    onReceive() {}
  }
  const ref = system.spawn(Idle, 'idle');
  for (let i = 0; i < 10_000; i += 1) ref.tell(i);
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0][1], 10_000);
  assert.match(warnings[0][0], /\/user\/idle$/);
  assert.ok(logs.includes('warn'));
  await idle(system);
  await system.terminate();
});

test('inspect returns plain rows and metrics can be turned off', async () => {
  // Rows carry path, class, mailbox kind and depths; withMetrics(false) scrapes "".
  const system = ActorSystem.create(uniqueName(), ActorSystemOptions.create().withMetrics(false));
  class Named extends Actor {}
  system.spawn(Named, 'n', ActorOptions.create().withMailboxCapacity(5));
  await idle(system);
  const row = system.inspect().find((r) => r.path === '/user/n');
  assert.equal(row.className, 'Named');
  assert.equal(row.fullPath, `mailroom://${system.name}/user/n`);
  assert.equal(row.mailboxKind, 'bounded');
  assert.equal(row.capacity, 5);
  assert.equal(row.userDepth, 0);
  assert.equal(system.metrics.scrape(), '');
  await system.terminate();
});

test('calls on a terminated system are named errors, never aborts', async () => {
  // IllegalStateError after terminate; refs of a released system swallow tells.
  const system = ActorSystem.create(uniqueName());
  class A extends Actor {}
  const ref = system.spawn(A, 'a');
  await system.terminate();
  assert.throws(() => system.spawn(A, 'b'), mailroom.IllegalStateError);
  assert.doesNotThrow(() => ref.tell('late'));
  await assert.rejects(system.deadLetterQueue.list(), mailroom.IllegalStateError);
  assert.equal(await system.terminate(), undefined);
});
