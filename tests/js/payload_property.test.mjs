// Property: every random JS value told as a dead letter to a persistent queue
// comes back after a restart deep-equal (type, bytes, holes, key order of
// sharing included) or degraded with its class and a reason — never changed,
// never lost, and tell never throws. Seeded and reproducible: a failure prints
// MAILROOM_PAYLOAD_SEED=<seed>; set it to replay exactly that run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Actor, ActorSystem, ActorSystemOptions, DeadLetterQueueOptions } from 'mailroom';
import { classNameOf } from '../../wasm/js/tagged_json.js';
import { idle, uniqueName } from './helpers.mjs';
import { payloadDifference } from './payload_equal.mjs';

const ROUNDS = 5;           // system runs: each tells a batch, then restarts (the last only reads)
const CASES_PER_ROUND = 750;

// mulberry32: small, seeded, good enough to pick shapes.
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generator(random, refs) {
  const int = (n) => Math.floor(random() * n);
  const pick = (list) => list[int(list.length)];
  const chance = (p) => random() < p;
  const pool = [];  // finished objects, reused to make shared references (never cycles)
  const bytes = (n) => Uint8Array.from({ length: n }, () => int(256));

  const string = () => pick([
    () => '', () => 'plain', () => '__proto__', () => '$t', () => 'v', () => 'k', () => 'constructor',
    () => String(int(1000)), () => 'héllo wörld ✓', () => '😀 astral', () => '\ud800 lone high', () => 'lone low \udc00',
    () => '\u0000nul\u2028sep', () => String.fromCharCode(...Array.from({ length: int(12) }, () => int(0x10000))),
  ])();
  const key = () => (chance(0.7) ? pick(['a', 'b', 'zeta', 'alpha', 'id', 'x.y', '', '0', '7', '42', '__proto__', '$t', 'v', 'k', 'n', 'p'])
    : string().replace(/[\ud800-\udfff]/g, 'x'));
  const number = () => pick([0, -0, 1, -1, 0.5, 1e21, -1e-7, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2,
    NaN, Infinity, -Infinity, random() * 1e6 - 5e5, int(100)]);
  const primitive = () => pick([
    string, number, () => BigInt(int(1000)) ** BigInt(int(8)) * (chance(0.5) ? -1n : 1n), () => chance(0.5),
    () => null, () => undefined,
  ])();

  const typedNames = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
    'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array'];
  const binary = () => {
    const kind = int(4);
    if (kind === 0) return bytes(int(20)).buffer;
    if (kind === 1) {
      const buffer = bytes(16).buffer;
      const offset = int(8);
      return new DataView(buffer, offset, int(16 - offset));
    }
    const Ctor = globalThis[pick(typedNames)];
    const count = int(6);
    const offset = int(3);
    // Random bytes: NaNs with payload bits, -0 and subnormals included.
    return new Ctor(bytes((offset + count) * Ctor.BYTES_PER_ELEMENT).buffer, offset * Ctor.BYTES_PER_ELEMENT, count);
  };
  const errorValue = (depth) => {
    const Ctor = pick([Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]);
    const error = chance(0.2) ? new AggregateError([value(depth + 1)], string()) : new Ctor(string(),
      chance(0.4) ? { cause: value(depth + 1) } : undefined);
    if (chance(0.3)) error.code = pick(['E1', 42, undefined]);
    if (chance(0.1)) error.name = 'Renamed';
    return error;
  };

  // A value that must round-trip.
  function value(depth = 0) {
    if (depth > 5 || chance(0.35)) return primitive();
    if (pool.length > 0 && chance(0.08)) return pick(pool);
    let made;
    switch (int(13)) {
      case 0: case 1: {
        made = chance(0.1) ? Object.create(null) : {};
        for (let i = int(5); i > 0; i -= 1) {
          Object.defineProperty(made, key(), { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
        }
        break;
      }
      case 2: case 3: {
        made = Array.from({ length: int(5) }, () => value(depth + 1));
        if (chance(0.25)) delete made[int(made.length + 1)];  // a hole
        if (chance(0.15)) made.length += int(3);             // trailing holes
        if (chance(0.1)) made.extra = value(depth + 1);
        break;
      }
      case 4: made = new Map(Array.from({ length: int(4) }, () => [value(depth + 1), value(depth + 1)])); break;
      case 5: made = new Set(Array.from({ length: int(4) }, () => value(depth + 1))); break;
      case 6: made = new Date(pick([0, -1, 8.64e15, -8.64e15, NaN, int(2e12)])); break;
      case 7: {
        made = new RegExp(pick(['a+b', '^\\d{2,}$', '[\\u0100-\\uffff]', '(?<name>x)|y', '\\/slash', '']),
          pick(['', 'g', 'gi', 'msu', 'y', 'dgimsuy']));
        if (made.global || made.sticky) made.lastIndex = int(4);
        break;
      }
      case 8: made = errorValue(depth); break;
      case 9: case 10: made = binary(); break;
      case 11: made = pick([() => new Number(number()), () => new String(string()), () => new Boolean(chance(0.5)),
        () => Object(BigInt(int(99)))])(); break;
      default: made = pick(refs); break;
    }
    pool.push(made);
    return made;
  }

  // A value holding one thing the journal cannot keep, somewhere inside.
  function refusedValue() {
    const hazards = [
      () => () => 1, () => Symbol('s'), () => new WeakMap(), () => new WeakSet(), () => Promise.resolve(),
      () => new (class Order { constructor() { this.id = 1; } })(), () => ({ [Symbol('key')]: 1 }),
      () => ({ get boom() { throw new Error('getter'); } }),
      () => new Proxy({}, { ownKeys() { throw new Error('trap'); } }),
      () => { const c = { c: null }; c.c = { back: c }; return c; },
      () => Object.assign(new Map(), { extra: 1 }),
      () => new (class AppError extends Error {})('x'),
    ];
    const hazard = pick(hazards)();
    let holder = hazard;
    for (let d = int(4); d > 0; d -= 1) {
      holder = pick([(h) => ({ [key()]: h, other: value(4) }), (h) => [value(4), h], (h) => new Map([[value(4), h]]),
        (h) => new Set([h])])(holder);
    }
    return holder;
  }

  return () => (chance(0.12) ? { value: refusedValue(), refused: true } : { value: value(), refused: false });
}

test('random JS values round-trip through the journal and restarts or are degraded with a reason', async (t) => {
  const seed = Number(process.env.MAILROOM_PAYLOAD_SEED ?? Math.floor(Math.random() * 2 ** 32));
  const replay = `MAILROOM_PAYLOAD_SEED=${seed} node --test tests/js/payload_property.test.mjs`;
  t.diagnostic(`seed ${seed}`);
  const random = prng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'mailroom-payload-property-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const name = uniqueName('property');
  const options = () => ActorSystemOptions.create().withJournalDir(dir)
    .withDeadLetters(DeadLetterQueueOptions.create().withStore('persistent').withMaxEntries(ROUNDS * CASES_PER_ROUND)
      .withRetentionMs(0));
  const expected = [];  // every case told so far, in order
  let restored = [];
  const stats = { captured: 0, degraded: 0 };
  for (let round = 0; round < ROUNDS; round += 1) {
    const system = ActorSystem.create(name, options());
    // What the last run journaled, back after this restart (earlier rounds again too).
    restored = (await system.deadLetterQueue.list({ limit: Infinity })).reverse();
    assert.equal(restored.length, expected.length, `${replay}: letters lost at restart ${round}`);
    for (const [i, entry] of restored.entries()) {
      const want = expected[i];
      if (want.refused) {
        assert.equal(entry.payload.kind, 'degraded', `${replay}: case ${i} should be degraded`);
        assert.equal(entry.payload.className, want.className, `${replay}: case ${i}`);
        assert.ok(entry.payload.reason.length > 0, `${replay}: case ${i} degraded without a reason`);
      } else {
        assert.equal(entry.payload.kind, 'captured',
          `${replay}: case ${i} degraded: ${entry.payload.reason}`);
        const difference = payloadDifference(want.value, entry.payload.message);
        assert.equal(difference, '', `${replay}: case ${i} changed: ${difference}`);
      }
      if (round === ROUNDS - 1) stats[entry.payload.kind] += 1;
    }
    if (round === ROUNDS - 1) {
      await system.terminate();
      break;
    }
    const refs = ['a0', 'a1', 'a2'].map((n) => system.spawn(class Quiet extends Actor {}, n));
    refs.push(system.deadLetters);
    const next = generator(random, refs);
    for (let i = 0; i < CASES_PER_ROUND; i += 1) {
      const made = next();
      made.className = classNameOf(made.value);
      expected.push(made);
      assert.doesNotThrow(() => system.actorSelection('/user/nobody').tell(made.value), `${replay}: tell threw`);
    }
    await idle(system);
    await system.terminate();
  }
  t.diagnostic(`${expected.length} cases: ${stats.captured} captured, ${stats.degraded} degraded, 0 lost`);
  assert.equal(stats.captured + stats.degraded, expected.length);
});
