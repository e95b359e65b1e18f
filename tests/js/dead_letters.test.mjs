// Dead letters from JS (seed 002, SPEC §4): the Watcher, the queue's list /
// get / replay / redirect, outcome names, HOCON, persistence across a restart.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  Actor, ActorOptions, ActorSystem, ActorSystemOptions, BoundedMailbox, ConfigError, DeadLetter,
  DeadLetterQueueOptions, OptionsError,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

const memory = () => ActorSystemOptions.create()
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory'));

class Sink extends Actor {
  static got = [];
  onReceive(m) {
    Sink.got.push([this.self.path, m, this.sender?.path ?? null]);
  }
}

// A stopped actor: its later tells are dead letters.
async function stoppedActor(system, name) {
  const ref = system.spawn(Sink, name);
  ref.stop();
  await idle(system);
  return ref;
}

test('the Watcher subscribes to DeadLetter from preStart and sees message and recipient', async () => {
  // The seed's Watcher, run unchanged; the framework itself logs nothing.
  const system = ActorSystem.create(uniqueName());
  const lines = [];
  class Watcher extends Actor {
    preStart() {
      this.system.eventStream.subscribe(this.self, DeadLetter);
    }
    onReceive(letter) {
      lines.push(`undelivered: ${letter.message} -> ${letter.recipient.path}`);
      this.system.log.warn(`undelivered: ${letter.message} -> ${letter.recipient.path}`);
    }
  }
  system.spawn(Watcher, 'watcher');
  await idle(system);
  const gone = await stoppedActor(system, 'gone');
  gone.tell('hello');
  await idle(system);
  assert.deepEqual(lines, [`undelivered: hello -> ${gone.path}`]);
  await system.terminate();
});

test('the queue is off by default: list is empty and replay answers unknown-entry', async () => {
  // system.deadLetterQueue always exists.
  const system = ActorSystem.create(uniqueName());
  const gone = await stoppedActor(system, 'gone');
  gone.tell('x');
  await idle(system);
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  assert.deepEqual(await system.deadLetterQueue.replay('1'), { kind: 'unknown-entry' });
  assert.equal(system.deadLetterQueue.settings.store, 'off');
  await system.terminate();
});

test('list returns entries newest first with the very payload object and filters', async () => {
  // Entry shape, recipient subtree filter, limit, sinceMs.
  const system = ActorSystem.create(uniqueName('orders'), memory());
  const checkout = await stoppedActor(system, 'checkout');
  const other = await stoppedActor(system, 'other');
  const first = { order: 1 };
  const second = { order: 2 };
  const before = Date.now();
  checkout.tell(first);
  checkout.tell(second);
  other.tell('elsewhere');
  await idle(system);
  const all = await system.deadLetterQueue.list();
  assert.deepEqual(all.map((e) => e.recipientPath), [other.path, checkout.path, checkout.path]);
  const recent = await system.deadLetterQueue.list({ recipient: checkout.path, sinceMs: before - 1, limit: 20 });
  assert.equal(recent.length, 2);
  assert.equal(recent[0].payload.kind, 'captured');
  assert.equal(recent[0].payload.message, second);
  assert.equal(recent[1].payload.message, first);
  const entry = recent[1];
  assert.equal(typeof entry.id, 'string');
  assert.equal(typeof entry.timestampMs, 'number');
  assert.ok(entry.timestampMs >= before - 1);
  assert.equal(entry.senderPath, null);
  assert.equal(entry.replayCount, 0);
  assert.equal(entry.quarantined, false);
  const app = await system.deadLetterQueue.list({ recipient: `mailroom://${system.name}/user` });
  assert.equal(app.length, 3);
  assert.equal((await system.deadLetterQueue.list({ limit: 1 })).length, 1);
  assert.deepEqual(await system.deadLetterQueue.get(entry.id), entry);
  assert.equal(await system.deadLetterQueue.get('999'), undefined);
  await system.terminate();
});

test('replay re-resolves the path, delivers with the recorded sender and the entry leaves', async () => {
  // The actor came back as a new instance under the same address.
  const system = ActorSystem.create(uniqueName(), memory());
  Sink.got = [];
  class Sender extends Actor {
    onReceive(target) {
      target.tell('from sender', this.self);
    }
  }
  const sender = system.spawn(Sender, 'sender');
  const gone = await stoppedActor(system, 'checkout');
  sender.tell(gone);
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  assert.equal(entry.senderPath, sender.path);
  assert.deepEqual(await system.deadLetterQueue.replay(entry.id), { kind: 'unresolved-recipient', recipientPath: gone.path });
  system.spawn(Sink, 'checkout');
  const result = await system.deadLetterQueue.replay(entry.id);
  assert.deepEqual(result, { kind: 'replayed', recipientPath: gone.path });
  await idle(system);
  assert.deepEqual(Sink.got, [[gone.path, 'from sender', sender.path]]);
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  assert.deepEqual(await system.deadLetterQueue.replay(entry.id), { kind: 'unknown-entry' });
  assert.match(system.metrics.scrape(), /actor_dead_letters_total\{outcome="replayed"\} 1/);
  await system.terminate();
});

test('a redirect changes only the target and does not resolve the original path', async () => {
  // replay(id, altPath) → replayed at the alternate, sender unchanged.
  const system = ActorSystem.create(uniqueName(), memory());
  Sink.got = [];
  const gone = await stoppedActor(system, 'checkout');
  gone.tell('order');
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  const v2 = system.spawn(Sink, 'checkout-v2');
  v2.stop();
  await idle(system);
  const result = await system.deadLetterQueue.replay(entry.id, `mailroom://${system.name}/user/checkout-v2`);
  assert.equal(result.kind, 'unresolved-recipient');
  const v3 = system.spawn(Sink, 'checkout-v3');
  const sent = await system.deadLetterQueue.replay(entry.id, v3.path);
  assert.deepEqual(sent, { kind: 'replayed', recipientPath: v3.path });
  await idle(system);
  assert.deepEqual(Sink.got, [[v3.path, 'order', null]]);
  await system.terminate();
});

test('replays are bounded: the letter is quarantined after max-replays', async () => {
  // A poison message never grows the queue: one entry, counting its replays.
  const system = ActorSystem.create(uniqueName(), ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('memory').withMaxReplays(1)));
  class Refuses extends Actor {
    onReceive(m) {
      this.unhandled(m);
    }
  }
  const ref = system.spawn(Refuses, 'refuses');
  ref.tell('poison');
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  assert.equal((await system.deadLetterQueue.replay(entry.id)).kind, 'replayed');
  await idle(system);
  const again = await system.deadLetterQueue.list();
  assert.equal(again.length, 1);
  assert.equal(again[0].id, entry.id);
  assert.equal(again[0].replayCount, 1);
  assert.equal(again[0].quarantined, true);
  assert.equal((await system.deadLetterQueue.replay(entry.id)).kind, 'quarantined');
  await system.terminate();
});

test('replay never lands in a guardian and a refusing mailbox loses nothing', async () => {
  // '' and non-user paths → unresolved-recipient; a full reject mailbox → rejected, entry stays.
  const system = ActorSystem.create(uniqueName(), memory());
  const gone = await stoppedActor(system, 'gone');
  gone.tell('letter');
  await idle(system);
  const [entry] = await system.deadLetterQueue.list();
  for (const path of ['', '/', '/user', '/system']) {
    assert.equal((await system.deadLetterQueue.replay(entry.id, path)).kind, 'unresolved-recipient', path);
  }
  class Never extends Actor {
    async onReceive() {
      await new Promise(() => {});
    }
  }
  const full = system.spawn(Never, 'full', ActorOptions.create().withMailbox(() => new BoundedMailbox({ capacity: 1 })));
  full.tell('busy');
  await idle(system);
  full.tell('queued');
  assert.equal((await system.deadLetterQueue.replay(entry.id, full.path)).kind, 'rejected');
  assert.equal((await system.deadLetterQueue.list()).length, 1);
  await assert.rejects(system.deadLetterQueue.replay({}), TypeError);
  await system.terminate();
});

test('the metrics store counts without keeping payloads', async () => {
  // list() empty, replay unknown-entry, counter captured.
  const system = ActorSystem.create(uniqueName(), ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('metrics')));
  const gone = await stoppedActor(system, 'gone');
  gone.tell(1);
  gone.tell(2);
  await idle(system);
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  assert.match(system.metrics.scrape(), /actor_dead_letters_total\{outcome="captured"\} 2/);
  await system.terminate();
});

test('HOCON via withConfig configures the queue and explicit options win per field', async () => {
  // explicit > HOCON > defaults, field by field.
  const hocon = `mailroom.dead-letters {\n  store = "memory"\n  max-entries = 1000\n  retention = 1h\n  max-replays = 3\n}`;
  const system = ActorSystem.create(uniqueName(), ActorSystemOptions.create().withConfig(hocon)
    .withDeadLetters(DeadLetterQueueOptions.create().withMaxEntries(5)));
  assert.deepEqual(
    { ...system.deadLetterQueue.settings, persistenceId: undefined },
    { store: 'memory', maxEntries: 5, retentionMs: 3_600_000, maxReplays: 3, persistenceId: undefined },
  );
  await system.terminate();
  assert.throws(() => ActorSystem.create(uniqueName(), ActorSystemOptions.create().withConfig('mailroom {')),
    (e) => e instanceof ConfigError && e.line >= 1);
  assert.throws(() => ActorSystem.create(uniqueName(), ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('disk'))),
  (e) => e instanceof OptionsError && e.field === 'store' && e.value === 'disk');
  assert.throws(() => DeadLetterQueueOptions.create().withMaxEntries('5'), OptionsError);
});

test('a persistent queue survives a restart of a system with the same name in one process', async () => {
  // Entries, ids and payloads come back; unjournalable payloads come back degraded.
  const name = uniqueName('orders');
  const options = () => ActorSystemOptions.create()
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent'));
  const first = ActorSystem.create(name, options());
  const gone = await stoppedActor(first, 'checkout');
  gone.tell({ when: new Date(5), tags: new Set(['a']), big: 10n, missing: undefined });
  gone.tell({ callback() {} });
  await idle(first);
  const before = await first.deadLetterQueue.list();
  await first.terminate();

  const second = ActorSystem.create(name, options());
  const after = await second.deadLetterQueue.list();
  assert.deepEqual(after.map((e) => e.id), before.map((e) => e.id));
  assert.equal(after[0].payload.kind, 'degraded');
  assert.equal(after[0].payload.className, 'Object');
  assert.match(after[0].payload.reason, /function/);
  assert.equal(after[1].payload.kind, 'captured');
  assert.deepEqual(after[1].payload.message, { when: new Date(5), tags: new Set(['a']), big: 10n, missing: undefined });
  assert.equal(after[1].recipientPath, `mailroom://${name}/user/checkout`);
  assert.equal((await second.deadLetterQueue.replay(after[0].id)).kind, 'degraded-payload');
  await second.terminate();
});

test('a journal directory persists the queue to real files', async () => {
  // withJournalDir: a new process (here: a new system) reads it back.
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-journal-'));
  try {
    const name = uniqueName('files');
    const options = () => ActorSystemOptions.create().withJournalDir(dir)
      .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withPersistenceId(`${name}-dl`));
    const first = ActorSystem.create(name, options());
    const gone = await stoppedActor(first, 'checkout');
    gone.tell({ n: 1 });
    await idle(first);
    await first.terminate();
    const second = ActorSystem.create(name, options());
    const entries = await second.deadLetterQueue.list();
    assert.equal(entries.length, 1);
    assert.deepEqual(entries[0].payload.message, { n: 1 });
    await second.terminate();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('HOCON mailroom.journal.dir is a real folder in Node too', async () => {
  // The directory can come from configuration as well as from withJournalDir.
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-hocon-journal-'));
  try {
    const name = uniqueName('hocon');
    const hocon = `mailroom {\n  journal.dir = "${dir}"\n  dead-letters.store = "persistent"\n}`;
    const first = ActorSystem.create(name, ActorSystemOptions.create().withConfig(hocon));
    const gone = await stoppedActor(first, 'checkout');
    gone.tell('kept');
    await idle(first);
    await first.terminate();
    assert.ok(readdirSync(dir).length > 0);
    const second = ActorSystem.create(name, ActorSystemOptions.create().withConfig(hocon));
    assert.deepEqual((await second.deadLetterQueue.list()).map((e) => e.payload.message), ['kept']);
    await second.terminate();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
