// Payloads through the persistent journal and a restart (issue 13): every JS
// value comes back deep-equal, type included, or degraded with its class and
// the reason; a throwing getter or a Proxy never makes tell throw; 10,000-level
// messages are delivered and journaled. The codec alone: tagged_json.test.mjs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Actor, ActorRef, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { idle, uniqueName } from './helpers.mjs';
import { payloadDifference } from './payload_equal.mjs';

const persistentIn = (dir) => ActorSystemOptions.create().withJournalDir(dir)
  .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(100_000));

function tempDir(t) {
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-payload-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// Dead-letters every message (a selection of nothing), restarts, and returns
// the restored entries oldest first, with the live entries of the first run.
async function throughJournal(t, messages, name = uniqueName('payload')) {
  const dir = tempDir(t);
  const first = ActorSystem.create(name, persistentIn(dir));
  for (const message of messages) first.actorSelection('/user/nobody').tell(message);
  await idle(first);
  const live = (await first.deadLetterQueue.list({ limit: Infinity })).reverse();
  await first.terminate();
  const second = ActorSystem.create(name, persistentIn(dir));
  t.after(() => second.terminate());
  const restored = (await second.deadLetterQueue.list({ limit: Infinity })).reverse();
  return { live, restored, system: second };
}

test('each kind of JS value comes back from the journal deep-equal, type included', async (t) => {
  const bytes = new Uint8Array([9, 8, 7, 6]);
  const sparse = [1, , 3];  // eslint-disable-line no-sparse-arrays
  const shared = { id: 'shared' };
  const values = [
    'text', 1.25, -0, NaN, Infinity, -Infinity, 10n ** 30n, true, null, undefined,
    new Date(1_700_000_000_000), /x+y/gimsu, new Error('boom'), new TypeError('bad', { cause: { code: 7 } }),
    Object.assign(new RangeError('r'), { code: 'E_RANGE' }), bytes.buffer, new DataView(bytes.buffer, 1, 2),
    new Int8Array([-1]), new Uint8Array([255]), new Uint8ClampedArray([3]), new Int16Array([-300]),
    new Uint16Array([60_000]), new Int32Array([-7]), new Uint32Array([2 ** 32 - 1]), new Float32Array([NaN, -0]),
    new Float64Array([Math.PI, -0, NaN]), new BigInt64Array([-(2n ** 63n)]), new BigUint64Array([2n ** 64n - 1n]),
    new Map([[{ k: 1 }, new Set([1n, 'a'])]]), new Set([undefined, null]), sparse, [undefined],
    JSON.parse('{"__proto__": {"admin": true}}'), Object.create(null), new String('boxed'),
    { $t: 'object', v: 'a user key named like a tag' }, [shared, { again: shared }], '\udfff lone',
  ];
  const { live, restored } = await throughJournal(t, values);
  assert.equal(restored.length, values.length);
  assert.deepEqual(restored.map((e) => e.id), live.map((e) => e.id));
  for (const [i, entry] of restored.entries()) {
    assert.equal(entry.payload.kind, 'captured', `${i}: ${entry.payload.reason}`);
    assert.equal(payloadDifference(values[i], entry.payload.message), '', `value ${i}`);
  }
  const pair = restored.at(-2).payload.message;
  assert.equal(pair[0], pair[1].again);  // still one object reached twice
});

test('an ActorRef comes back as a ref to the same path that reaches the actor living there now', async (t) => {
  // Not a plain object with a stale id: a ref of the restored system.
  const name = uniqueName('refs');
  const dir = tempDir(t);
  const first = ActorSystem.create(name, persistentIn(dir));
  class Quiet extends Actor {}
  const worker = first.spawn(Quiet, 'worker');
  first.actorSelection('/user/nobody').tell({ replyTo: worker, refs: [worker, first.deadLetters] });
  await idle(first);
  await first.terminate();

  const second = ActorSystem.create(name, persistentIn(dir));
  t.after(() => second.terminate());
  const [entry] = await second.deadLetterQueue.list();
  const { replyTo, refs } = entry.payload.message;
  assert.ok(replyTo instanceof ActorRef);
  assert.equal(replyTo.path, `mailroom://${name}/user/worker`);
  assert.equal(refs[0], replyTo);  // shared: one ref
  // Restored while the system is created, before system.deadLetters exists: a
  // ref to its path (equal, not the same object).
  assert.ok(refs[1] instanceof ActorRef && refs[1].equals(second.deadLetters));
  const got = [];
  second.spawn(class Worker extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }, 'worker');
  replyTo.tell('hello again');
  await idle(second);
  assert.deepEqual(got, ['hello again']);
});

test('what cannot come back is degraded with its class and the reason, and tell never throws', async (t) => {
  // The live entry keeps the very object; the journaled copy is provenance only.
  class Order {
    constructor() {
      this.id = 1;
    }
  }
  const trap = new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('keys'); } });
  const cyclic = { name: 'loop' };
  cyclic.self = cyclic;
  const refused = [
    [{ get total() { throw new Error('getter!'); } }, 'Object', /\$\.total.*getter!/],
    [trap, 'Object', /keys/],
    [{ inner: new Proxy([], { getPrototypeOf() { throw new Error('proto'); } }) }, 'Object', /proto/],
    [() => 1, 'Function', /function/],
    [{ s: Symbol('x') }, 'Object', /symbol/],
    [new WeakMap(), 'WeakMap', /WeakMap/],
    [cyclic, 'Object', /cycle/],
    [new Order(), 'Order', /class Order/],
  ];
  const { live, restored, system } = await throughJournal(t, refused.map(([value]) => value));
  assert.equal(restored.length, refused.length);
  for (const [i, [value, className, reason]] of refused.entries()) {
    assert.equal(live[i].payload.message, value, `live ${i}`);
    const { payload } = restored[i];
    assert.equal(payload.kind, 'degraded', `${i}`);
    assert.equal(payload.className, className, `${i}`);
    assert.match(payload.reason, reason, `${i}`);
    assert.deepEqual(await system.deadLetterQueue.replay(restored[i].id), { kind: 'degraded-payload' });
  }
});

test('a 10,000-level message is delivered, captured and comes back from the journal intact', async (t) => {
  // No stack overflow in JS or wasm: iterative codec, shallow JSON for the core.
  let deep = 'leaf';
  for (let i = 0; i < 10_000; i += 1) deep = i % 2 ? { c: deep } : [deep];
  const name = uniqueName('deep');
  const dir = tempDir(t);
  const first = ActorSystem.create(name, persistentIn(dir));
  const got = [];
  const ref = first.spawn(class Sink extends Actor {
    onReceive(m) {
      got.push(m);
    }
  }, 'sink');
  ref.tell(deep);
  first.actorSelection('/user/nobody').tell(deep);
  await idle(first);
  assert.equal(got[0], deep);
  await first.terminate();
  const second = ActorSystem.create(name, persistentIn(dir));
  t.after(() => second.terminate());
  const [entry] = await second.deadLetterQueue.list();
  assert.equal(entry.payload.kind, 'captured');
  assert.equal(payloadDifference(deep, entry.payload.message), '');
});
