// Seed fidelity, dead letters (seed 002; SPEC §4/§5): every behaviour the seed
// states, and the seed framework's own queue tests our API can express.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  Actor, ActorSystem, ActorSystemOptions, DeadLetter, DeadLetterQueue, DeadLetterQueueOptions,
  OptionsError,
} from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';

class Nothing extends Actor {
  onReceive() {}
}

const withQueue = (dl, config) => {
  const options = ActorSystemOptions.create();
  if (config !== undefined) options.withConfig(config);
  if (dl !== undefined) options.withDeadLetters(dl);
  return options;
};
const memory = (more = (o) => o) => withQueue(more(DeadLetterQueueOptions.create().withStore('memory')));

// Stop `name` and, once it is gone, tell it `message`: one dead letter.
async function deadLetterTo(system, name, message, sender = null) {
  const ref = system.spawn(Nothing, name);
  ref.stop();
  await idle(system);
  ref.tell(message, sender);
  await idle(system);
  return ref;
}

const messagesOf = (entries) => entries.map((e) => e.payload.message);

test('the default: every dead letter is published on the event stream and the queue keeps nothing', async () => {
  // store 'off': a DeadLetter names message, sender and the recipient it did not reach.
  const system = ActorSystem.create(uniqueName('fidelity'));
  const letters = [];
  system.eventStream.subscribe((l) => letters.push(l), DeadLetter);
  assert.equal(system.deadLetterQueue.store, 'off');
  const sender = system.spawn(Nothing, 'sender');
  const gone = await deadLetterTo(system, 'gone', 'too-late', sender);
  gone.tell('no-sender');
  await idle(system);
  assert.deepEqual(letters.map((l) => [l.message, l.sender, l.recipient.path]),
    [['too-late', sender, gone.path], ['no-sender', null, gone.path]]);
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  assert.deepEqual(await system.deadLetterQueue.replay('1'), { kind: 'unknown-entry' });
  await system.terminate();
});

test('every source makes a dead letter: stopped actor, empty selection, unhandled', async () => {
  // Each names the actor the message did not reach.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  class Picky extends Actor {
    onReceive(m) {
      if (m !== 'ok') this.unhandled(m);
    }
  }
  const picky = system.spawn(Picky, 'picky');
  const gone = await deadLetterTo(system, 'gone', 'to-stopped');
  system.actorSelection('/user/nobody').tell('to-nowhere');
  picky.tell('ok');
  picky.tell('unwanted');
  await idle(system);
  const entries = await system.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => [e.payload.message, e.recipientPath]), [
    ['unwanted', picky.path],
    ['to-nowhere', gone.path.replace('/user/gone', '/user/nobody')],
    ['to-stopped', gone.path],
  ]);
  await system.terminate();
});

test('an entry has the documented fields and get(id) returns it', async () => {
  // id, timestampMs, recipientPath, senderPath, replayCount, payload {kind:'captured', message}.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  const sender = system.spawn(Nothing, 'sender');
  const sent = { order: 42 };
  const before = Date.now();
  const gone = await deadLetterTo(system, 'gone', sent, sender);
  const [entry] = await system.deadLetterQueue.list();
  assert.equal(typeof entry.id, 'string');
  assert.notEqual(entry.id, '');
  assert.ok(entry.timestampMs >= before && entry.timestampMs <= Date.now());
  assert.equal(entry.recipientPath, gone.path);
  assert.equal(entry.senderPath, sender.path);
  assert.equal(entry.replayCount, 0);
  assert.deepEqual(entry.payload, { kind: 'captured', message: sent });
  assert.equal(entry.payload.message, sent);
  assert.deepEqual(await system.deadLetterQueue.get(entry.id), entry);
  assert.equal(await system.deadLetterQueue.get('no-such-id'), undefined);
  await system.terminate();
});

test('list is newest first and filters by recipient subtree, sinceMs, untilMs and limit', async () => {
  // The seed's filter, including actor-ts:// style paths naming the system.
  const name = uniqueName('orders');
  const system = ActorSystem.create(name, memory());
  await deadLetterTo(system, 'alpha', 'a');
  await deadLetterTo(system, 'checkout', 'c1');
  const checkout = system.resolve('/user/checkout');
  assert.equal(checkout, null);
  system.actorSelection('/user/checkout/payment').tell('c2');
  await idle(system);
  const dlq = system.deadLetterQueue;
  assert.deepEqual(messagesOf(await dlq.list()), ['c2', 'c1', 'a']);
  assert.deepEqual(messagesOf(await dlq.list({ recipient: `actor-ts://${name}/user/checkout` })), ['c2', 'c1']);
  assert.deepEqual(messagesOf(await dlq.list({ recipient: `mailroom://${name}/user/checkout` })), ['c2', 'c1']);
  assert.deepEqual(messagesOf(await dlq.list({ recipient: '/user/alpha' })), ['a']);
  assert.equal((await dlq.list({ recipient: `actor-ts://${name}/user` })).length, 3);
  assert.deepEqual(await dlq.list({ recipient: `actor-ts://${name}/user/check` }), []);
  assert.deepEqual(messagesOf(await dlq.list({ limit: 2 })), ['c2', 'c1']);
  assert.deepEqual(await dlq.list({ untilMs: 0 }), []);
  assert.deepEqual(await dlq.list({ sinceMs: Date.now() + 60_000 }), []);
  const recent = await dlq.list({
    recipient: `actor-ts://${name}/user/checkout`,
    sinceMs: Date.now() - 15 * 60 * 1_000,
    limit: 20,
  });
  assert.deepEqual(messagesOf(recent), ['c2', 'c1']);
  await system.terminate();
});

test('max-entries evicts the oldest entry rather than growing', async () => {
  // A bounded ring.
  const system = ActorSystem.create(uniqueName('fidelity'), memory((o) => o.withMaxEntries(2)));
  await deadLetterTo(system, 'a', 'first');
  await deadLetterTo(system, 'b', 'second');
  await deadLetterTo(system, 'c', 'third');
  assert.deepEqual(messagesOf(await system.deadLetterQueue.list()), ['third', 'second']);
  await system.terminate();
});

test('replay outcomes are named: unknown-entry, unresolved-recipient (stays), replayed (leaves)', async () => {
  // Replay re-resolves the path: the actor is back as a new instance.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  const dlq = system.deadLetterQueue;
  await deadLetterTo(system, 'worker', 'work');
  const [entry] = await dlq.list();
  assert.deepEqual(await dlq.replay('nope'), { kind: 'unknown-entry' });
  const unresolved = await dlq.replay(entry.id);
  assert.equal(unresolved.kind, 'unresolved-recipient');
  assert.equal((await dlq.list()).length, 1);
  const received = [];
  class Recorder extends Actor {
    onReceive(m) {
      received.push(m);
    }
  }
  const back = system.spawn(Recorder, 'worker');
  const result = await dlq.replay(entry.id);
  assert.deepEqual(result, { kind: 'replayed', recipientPath: back.path });
  await idle(system);
  assert.deepEqual(received, ['work']);
  assert.deepEqual(await dlq.list(), []);
  assert.deepEqual(await dlq.replay(entry.id), { kind: 'unknown-entry' });
  assert.match(system.metrics.scrape(), /actor_dead_letters_total\{outcome="replayed"\} 1/);
  await system.terminate();
});

test('a redirect changes only the target, keeps the sender and does not resolve the original path', async () => {
  // replay(id, alt): the receiver's sender is the recorded one.
  const name = uniqueName('orders');
  const system = ActorSystem.create(name, memory());
  const sender = system.spawn(Nothing, 'sender');
  await deadLetterTo(system, 'checkout', 'order', sender);
  const [entry] = await system.deadLetterQueue.list();
  const seen = [];
  class CheckoutV2 extends Actor {
    onReceive(m) {
      seen.push([m, this.sender]);
    }
  }
  const v2 = system.spawn(CheckoutV2, 'checkout-v2');
  const result = await system.deadLetterQueue.replay(entry.id, `actor-ts://${name}/user/checkout-v2`);
  assert.equal(result.kind, 'replayed');
  assert.equal(result.recipientPath, v2.path);
  await idle(system);
  assert.deepEqual(seen, [['order', sender]]);
  await system.terminate();
});

test('a poison message comes back as the same entry with replayCount + 1, then is quarantined', async () => {
  // HOCON actor-ts.dead-letters as the seed writes it; max-replays 2.
  const config = 'actor-ts.dead-letters {\n  store = "memory"\n  max-entries = 1000\n  retention = 1h\n  max-replays = 2\n}';
  const system = ActorSystem.create(uniqueName('fidelity'), withQueue(undefined, config));
  class Refuser extends Actor {
    onReceive(m) {
      this.unhandled(m);
    }
  }
  system.spawn(Refuser, 'worker');
  system.actorSelection('/user/worker').tell('poison');
  await idle(system);
  const [original] = await system.deadLetterQueue.list();
  assert.equal(original.replayCount, 0);
  for (let expected = 1; expected <= 2; expected += 1) {
    assert.equal((await system.deadLetterQueue.replay(original.id)).kind, 'replayed');
    await idle(system);
    const entries = await system.deadLetterQueue.list();
    assert.equal(entries.length, 1);
    assert.equal(entries[0].id, original.id);
    assert.equal(entries[0].replayCount, expected);
  }
  const refused = await system.deadLetterQueue.replay(original.id);
  assert.equal(refused.kind, 'quarantined');
  assert.equal(refused.replayCount, 2);
  assert.equal((await system.deadLetterQueue.list()).length, 1);
  const text = system.metrics.scrape();
  assert.match(text, /actor_dead_letters_total\{outcome="captured"\} 1\n/);
  assert.match(text, /actor_dead_letters_total\{outcome="replayed"\} 2\n/);
  assert.doesNotMatch(text, /actor_dead_letters_total\{[^}]*recipient/);
  await system.terminate();
});

test('a redirected letter that bounces returns with the alternate path, and the bound still applies', async () => {
  // The replay bound counts the letter, not the recipient asked.
  const system = ActorSystem.create(uniqueName('fidelity'), memory((o) => o.withMaxReplays(1)));
  class Refuser extends Actor {
    onReceive(m) {
      this.unhandled(m);
    }
  }
  await deadLetterTo(system, 'gone', 'letter');
  const refuser = system.spawn(Refuser, 'refuser');
  system.spawn(Nothing, 'other');
  const [entry] = await system.deadLetterQueue.list();
  assert.equal((await system.deadLetterQueue.replay(entry.id, refuser.path)).kind, 'replayed');
  await idle(system);
  const [bounced] = await system.deadLetterQueue.list();
  assert.equal(bounced.id, entry.id);
  assert.equal(bounced.recipientPath, refuser.path);
  assert.equal(bounced.replayCount, 1);
  assert.equal((await system.deadLetterQueue.replay(entry.id, '/user/other')).kind, 'quarantined');
  await system.terminate();
});

test('two letters with equal payloads are two entries, replayed independently', async () => {
  // Replays are tracked by envelope identity, not by message value.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  class Refuser extends Actor {
    onReceive(m) {
      this.unhandled(m);
    }
  }
  const gone = await deadLetterTo(system, 'gone', 'same');
  gone.tell('same');
  await idle(system);
  const [newer, older] = await system.deadLetterQueue.list();
  assert.notEqual(newer.id, older.id);
  system.spawn(Refuser, 'refuser');
  assert.equal((await system.deadLetterQueue.replay(older.id, '/user/refuser')).kind, 'replayed');
  await idle(system);
  const after = await system.deadLetterQueue.list();
  assert.equal(after.length, 2);
  const counts = Object.fromEntries(after.map((e) => [e.id, e.replayCount]));
  assert.deepEqual(counts, { [older.id]: 1, [newer.id]: 0 });
  await system.terminate();
});

test('the metrics store keeps a counter and no payload: list empty, replay unknown-entry', async () => {
  // Nothing was kept, so there is nothing to hand back.
  const system = ActorSystem.create(uniqueName('fidelity'),
    withQueue(DeadLetterQueueOptions.create().withStore('metrics')));
  assert.equal(system.deadLetterQueue.store, 'metrics');
  await deadLetterTo(system, 'gone', 'secret');
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  assert.deepEqual(await system.deadLetterQueue.replay('1'), { kind: 'unknown-entry' });
  assert.match(system.metrics.scrape(), /actor_dead_letters_total\{outcome="captured"\} 1/);
  await system.terminate();
});

test('the persistent store journals degraded provenance for what the encoder refuses', async () => {
  // Functions, symbols, promises, weak collections and cycles: the live entry keeps the
  // object; the journaled copy read back at the next start is degraded and not replayable.
  const name = uniqueName('fidelity');
  const options = () => withQueue(DeadLetterQueueOptions.create().withStore('persistent'));
  const first = ActorSystem.create(name, options());
  const cycle = { name: 'loop' };
  cycle.self = cycle;
  const refused = [() => 1, Symbol('s'), Promise.resolve(1), new WeakMap(), new WeakSet(), cycle,
    { nested: { fn() {} } }];
  const gone = await deadLetterTo(first, 'gone', { plain: [1, 'two'] });
  for (const m of refused) gone.tell(m);
  await idle(first);
  const live = await first.deadLetterQueue.list();
  assert.equal(live.length, refused.length + 1);
  assert.deepEqual(live.slice(0, refused.length).reverse().map((e) => e.payload.message), refused);
  await first.terminate();

  const second = ActorSystem.create(name, options());
  const entries = await second.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => e.id), live.map((e) => e.id));
  const degraded = entries.slice(0, refused.length).reverse();
  for (const [i, entry] of degraded.entries()) {
    assert.equal(entry.payload.kind, 'degraded', `message ${i}`);
    assert.equal(typeof entry.payload.className, 'string');
    assert.notEqual(entry.payload.className, '');
    assert.equal(typeof entry.payload.reason, 'string');
    assert.equal('message' in entry.payload, false);
    assert.deepEqual(await second.deadLetterQueue.replay(entry.id), { kind: 'degraded-payload' });
  }
  assert.deepEqual(degraded.slice(2).map((e) => e.payload.className), ['Promise', 'WeakMap', 'WeakSet', 'Object', 'Object']);
  assert.deepEqual(entries[entries.length - 1].payload, { kind: 'captured', message: { plain: [1, 'two'] } });
  await second.terminate();
});

test('the memory store keeps any JS value as the very object sent', async () => {
  // Only the journal needs encoding: a function payload is captured unchanged in memory.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  const fn = () => 1;
  const gone = await deadLetterTo(system, 'gone', fn);
  gone.tell(gone);
  await idle(system);
  const [ref, first] = await system.deadLetterQueue.list();
  assert.equal(first.payload.message, fn);
  assert.equal(ref.payload.message, gone);
  await system.terminate();
});

test('precedence is per field: explicit options > HOCON > defaults', async () => {
  // One knob named in code leaves the rest of the HOCON block in force.
  const hocon = 'actor-ts.dead-letters {\n  store = "memory"\n  max-entries = 4\n  max-replays = 7\n}';
  const explicitWins = ActorSystem.create(uniqueName('fidelity'),
    withQueue(DeadLetterQueueOptions.create().withMaxEntries(9), hocon));
  const s = explicitWins.deadLetterQueue.settings;
  assert.deepEqual([s.store, s.maxEntries, s.maxReplays], ['memory', 9, 7]);
  for (const n of ['a', 'b', 'c', 'd', 'e']) await deadLetterTo(explicitWins, n, n);
  assert.equal((await explicitWins.deadLetterQueue.list()).length, 5);
  await explicitWins.terminate();

  const off = ActorSystem.create(uniqueName('fidelity'),
    withQueue(DeadLetterQueueOptions.create().withStore('off'), hocon));
  assert.equal(off.deadLetterQueue.store, 'off');
  await off.terminate();

  const partial = ActorSystem.create(uniqueName('fidelity'),
    withQueue(DeadLetterQueueOptions.create().withMaxReplays(1), 'mailroom.dead-letters { store = "persistent" }'));
  assert.equal(partial.deadLetterQueue.store, 'persistent');
  assert.equal(partial.deadLetterQueue.settings.maxReplays, 1);
  await partial.terminate();

  const plainObject = ActorSystem.create(uniqueName('fidelity'),
    withQueue({ store: undefined, maxEntries: 3 }, hocon));
  assert.equal(plainObject.deadLetterQueue.store, 'memory');
  assert.equal(plainObject.deadLetterQueue.settings.maxEntries, 3);
  await plainObject.terminate();

  const defaults = ActorSystem.create(uniqueName('fidelity'));
  const d = defaults.deadLetterQueue.settings;
  assert.equal(d.store, 'off');
  assert.ok(d.maxEntries > 0 && d.retentionMs > 0 && d.maxReplays > 0);
  await defaults.terminate();
});

test('the seed options builder: persistent, 5,000 entries, six hours', async () => {
  // DeadLetterQueueOptions / ActorSystemOptions.withDeadLetters exactly as the seed writes them.
  const deadLetterOptions = DeadLetterQueueOptions.create()
    .withStore('persistent')
    .withMaxEntries(5_000)
    .withRetentionMs(6 * 60 * 60 * 1_000);
  assert.deepEqual({ ...deadLetterOptions }, { store: 'persistent', maxEntries: 5_000, retentionMs: 21_600_000 });
  const systemOptions = ActorSystemOptions.create().withDeadLetters(deadLetterOptions);
  const system = ActorSystem.create(uniqueName('orders'), systemOptions);
  const s = system.deadLetterQueue.settings;
  assert.deepEqual([s.store, s.maxEntries, s.retentionMs], ['persistent', 5_000, 21_600_000]);
  await system.terminate();
});

test('invalid queue options are OptionsErrors at system creation', () => {
  // max-entries must be positive; unknown stores and negative bounds are refused.
  const bad = [
    [DeadLetterQueueOptions.create().withMaxEntries(0), 'maxEntries'],
    [DeadLetterQueueOptions.create().withMaxEntries(1.5), 'maxEntries'],
    [DeadLetterQueueOptions.create().withStore('log-only'), 'store'],
    [DeadLetterQueueOptions.create().withRetentionMs(-1), 'retentionMs'],
    [DeadLetterQueueOptions.create().withMaxReplays(-1), 'maxReplays'],
  ];
  for (const [options, field] of bad) {
    assert.throws(() => ActorSystem.create(uniqueName('fidelity'), withQueue(options)), (e) => {
      assert.ok(e instanceof OptionsError, `${field}: ${e}`);
      assert.match(`${e.field} ${e.message}`, new RegExp(field.replace(/[A-Z]/g, (c) => `[-]?${c.toLowerCase()}`), 'i'));
      return true;
    });
  }
});

test('a DeadLetterQueue built by hand is a valid object that never receives a letter', async () => {
  // withDeadLetters is the only way to configure the queue the system uses.
  const system = ActorSystem.create(uniqueName('fidelity'));
  const handMade = new DeadLetterQueue(system, DeadLetterQueueOptions.create().withStore('memory'));
  assert.equal(handMade.store, 'memory');
  await deadLetterTo(system, 'gone', 'lost');
  assert.deepEqual(await handMade.list(), []);
  assert.deepEqual(await handMade.replay('1'), { kind: 'unknown-entry' });
  assert.ok(system.deadLetterQueue instanceof DeadLetterQueue);
  assert.notEqual(system.deadLetterQueue, handMade);
  await system.terminate();
});

test('the seed framework\'s config object form works: withConfig({ "actor-ts": { "dead-letters": ... } })', async () => {
  // A plain config object is read like HOCON; retention is a duration, and letters age out.
  const config = { 'actor-ts': { 'dead-letters': { store: 'memory', 'max-entries': 2, retention: '1ms' } } };
  const system = ActorSystem.create(uniqueName('fidelity'), ActorSystemOptions.create().withConfig(config));
  const s = system.deadLetterQueue.settings;
  assert.deepEqual([s.store, s.maxEntries, s.retentionMs], ['memory', 2, 1]);
  await deadLetterTo(system, 'gone', 'lost');
  const stamp = Date.now();
  for (let i = 0; i < 100_000 && Date.now() < stamp + 3; i += 1) await new Promise((r) => setImmediate(r));
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  await system.terminate();
});

test('clear empties the queue', async () => {
  // Everything held is forgotten.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  await deadLetterTo(system, 'gone', 'lost');
  assert.equal((await system.deadLetterQueue.list()).length, 1);
  await system.deadLetterQueue.clear();
  assert.deepEqual(await system.deadLetterQueue.list(), []);
  await system.terminate();
});

test('user messages queued behind the PoisonPill are drained into dead letters for that actor', async () => {
  // system.stop is ref.stop(): q1 (before the pill) is handled, q2 (behind it) is dead-lettered.
  const system = ActorSystem.create(uniqueName('fidelity'), memory());
  let release;
  const gate = new Promise((r) => {
    release = r;
  });
  const handled = [];
  class Busy extends Actor {
    async onReceive(m) {
      if (m === 'block') await gate;
      handled.push(m);
    }
  }
  const ref = system.spawn(Busy, 'busy');
  ref.tell('block');
  await idle(system);
  ref.tell('q1');
  system.stop(ref);
  ref.tell('q2');
  ref.tell('q3');
  release();
  for (let i = 0; i < 1_000 && system.resolve('/user/busy'); i += 1) await idle(system);
  await idle(system);
  assert.deepEqual(handled, ['block', 'q1']);
  const entries = await system.deadLetterQueue.list();
  assert.deepEqual(entries.map((e) => [e.payload.message, e.recipientPath]).reverse(),
    [['q2', ref.path], ['q3', ref.path]]);
  await system.terminate();
});
