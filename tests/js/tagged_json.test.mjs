// The tagged-JSON codec for persistent JS payloads: what round-trips (deep
// equality, type included) and what is refused (degraded), never silently
// changed. Through the journal and a restart: payload_fidelity.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EncodeRefusal, decodeTagged, encodeTagged } from 'mailroom';
import { HOIST_DEPTH } from '../../wasm/js/tagged_json.js';
import { payloadDifference } from './payload_equal.mjs';

// What the core does to the JSON on its way through the journal: nlohmann::json
// sorts object keys. (The JSON is shallow, so recursion is fine here.)
function sortKeys(node) {
  if (Array.isArray(node)) return node.map(sortKeys);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const key of Object.keys(node).sort()) Object.defineProperty(out, key, { value: sortKeys(node[key]), enumerable: true });
  return out;
}
const throughCore = (text) => JSON.stringify(sortKeys(JSON.parse(text)));
const roundTrip = (value) => decodeTagged(throughCore(encodeTagged(value)));

test('plain data, Date, Map, Set, BigInt, undefined, NaN, ±Infinity and -0 round-trip', () => {
  // decode(encode(v)) is deep-equal to v, including the special numbers.
  const value = {
    text: 'a', n: 1.5, yes: true, none: null, list: [1, 'two', [3]],
    when: new Date(1_700_000_000_000), map: new Map([[1, { a: 1 }], ['k', new Set([2n])]]),
    big: -12345678901234567890n, missing: undefined, nan: NaN, inf: Infinity, ninf: -Infinity,
    $t: 'a user key named like the tag',
  };
  assert.deepEqual(roundTrip(value), value);
  assert.ok(Object.is(roundTrip(-0), -0));
  assert.equal(roundTrip(undefined), undefined);
  const invalid = roundTrip(new Date(NaN));  // deepEqual calls NaN dates unequal
  assert.ok(invalid instanceof Date && Number.isNaN(invalid.getTime()));
});

test('RegExp, Error, binary data, boxed primitives, sparse arrays and odd keys round-trip exactly', () => {
  // Each one came back as {} or lost its bytes, holes or keys before (issue 13).
  const bytes = new Uint8Array([0, 1, 254, 255, 128]);
  const nanBits = new Float64Array(new Uint8Array([1, 0, 0, 0, 0, 0, 0xf8, 0x7f]).buffer);  // a NaN with payload bits
  const sparse = [1, , 3];  // eslint-disable-line no-sparse-arrays
  sparse.length = 6;
  const cases = {
    regexp: /a+(b)?/giu,
    sticky: Object.assign(/x/y, { lastIndex: 2 }),
    error: new Error('boom'),
    typeError: new TypeError('bad', { cause: new RangeError('why') }),
    aggregate: new AggregateError([new Error('one'), 'two'], 'many'),
    coded: Object.assign(new Error('io'), { code: 'EIO', errno: -5 }),
    renamed: Object.assign(new Error('x'), { name: 'CustomName' }),
    buffer: bytes.buffer,
    view: new DataView(bytes.buffer, 1, 3),
    window: bytes.subarray(1, 4),
    floats: new Float32Array([NaN, -0, Infinity, 1.5]),
    nanBits,
    clamped: new Uint8ClampedArray([0, 255]),
    ints: new Int32Array([-1, 2 ** 31 - 1]),
    bigs: new BigUint64Array([2n ** 64n - 1n]),
    nodeBuffer: Buffer.from('héllo'),
    boxed: [new Number(-0), new String('ab'), new Boolean(false), Object(5n)],
    sparse,
    undefinedSlots: [undefined, undefined],
    arrayProps: Object.assign([1, 2], { label: 'x' }),
    protoKey: JSON.parse('{"__proto__": {"polluted": true}, "y": 2}'),
    nullProto: Object.assign(Object.create(null), { a: 1 }),
    lone: '\ud800 half a pair \udc00',
    emptyKey: { '': 1, 'a.b': 2, 0: 'zero' },
  };
  for (const [name, value] of Object.entries(cases)) {
    const back = roundTrip(value);
    assert.equal(payloadDifference(value, back), '', `${name}: ${encodeTagged(value)}`);
    assert.deepEqual(back, value, name);  // node:util agrees
  }
  assert.equal(roundTrip(cases.error).stack, cases.error.stack);
  assert.equal(Object.getPrototypeOf(roundTrip(cases.protoKey)), Object.prototype);
  assert.equal({}.polluted, undefined);
  assert.ok(Buffer.isBuffer(roundTrip(cases.nodeBuffer)));
});

test('an object reached twice comes back as one object reached twice', () => {
  // Shared references are kept (written once, then referenced), not duplicated.
  const shared = { s: 1 };
  const list = [7];
  const back = roundTrip({ a: shared, b: [shared, list], c: new Map([[list, shared]]) });
  assert.deepEqual(back, { a: { s: 1 }, b: [{ s: 1 }, [7]], c: new Map([[[7], { s: 1 }]]) });
  assert.equal(back.a, back.b[0]);
  assert.equal(back.b[1], [...back.c.keys()][0]);
  assert.equal(back.a, [...back.c.values()][0]);
});

test('key order survives the core sorting keys', () => {
  // "k" records the order where sorting would change it.
  const back = roundTrip({ zeta: 1, alpha: { y: 1, x: 2 }, 2: 'two', 1: 'one', mid: new Error('e') });
  assert.deepEqual(Object.keys(back), ['1', '2', 'zeta', 'alpha', 'mid']);
  assert.deepEqual(Object.keys(back.alpha), ['y', 'x']);
  assert.equal(encodeTagged({ a: 1, b: 2 }).includes('"k"'), false);  // nothing extra when already sorted
});

test('a flat object is written directly, as the walk writes the same object one level down', () => {
  // The common message ({ kind, id }) skips the node tree; its text must be the
  // walk's text for the same object (inside an array the walk writes it).
  const long = `${'x'.repeat(70)}"\\\n`;
  const cases = [
    { kind: 'order', id: 1 }, {}, { a: 1, b: 2 }, { zeta: 1, alpha: 2, 2: 'two', 1: 'one' },
    { q: 'say "hi"\\ \n\t\u0001\u007f', e: 'é €😀', lone: '\ud800x', long, [long]: long },
    { n: 1.5, z: -0, nan: NaN, inf: Infinity, ninf: -Infinity, big: 1e21, small: 5e-7, int: -42 },
    { b: 12n, u: undefined, nul: null, t: true, f: false, '': 'empty key', 'k"ey': 1 },
    JSON.parse('{"__proto__": 1, "y": 2}'),
    Object.assign(Object.create(null), { b: 1, a: 'x' }),
  ];
  for (const value of cases) {
    const text = encodeTagged(value);
    assert.equal(`[${text}]`, encodeTagged([value]), text);
    assert.equal(payloadDifference(value, roundTrip(value)), '', text);
  }
  // A function among the values is refused with its path, as the walk refuses it.
  assert.throws(() => encodeTagged({ a: 1, f() {} }), (e) => e instanceof EncodeRefusal && /\(at \$\.f\)/.test(e.reason));
  // Each property is read once, also when the object turns out not to be flat.
  let reads = 0;
  const counted = { get once() { reads += 1; return 1; }, nested: { a: 1 } };
  assert.equal(payloadDifference({ once: 1, nested: { a: 1 } }, roundTrip(counted)), '');
  assert.equal(reads, 1);
});

test('10,000 levels of nesting round-trip and the JSON stays shallow for the core', () => {
  // No recursion in JS; subtrees past HOIST_DEPTH move to a side table.
  for (const wrap of [(v) => ({ c: v }), (v) => [v], (v) => new Map([['k', v]]), (v) => new Set([v])]) {
    let value = 'leaf';
    for (let i = 0; i < 10_000; i += 1) value = wrap(value);
    const text = encodeTagged(value);
    let depth = 0;
    let deepest = 0;
    for (const ch of text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
      if (ch === '[' || ch === '{') deepest = Math.max(deepest, ++depth);
      else if (ch === ']' || ch === '}') depth -= 1;
    }
    assert.ok(deepest <= 3 * HOIST_DEPTH + 4, `JSON depth ${deepest}`);
    assert.equal(payloadDifference(value, decodeTagged(throughCore(text))), '');
  }
});

test('functions, symbols, promises, weak collections, cycles and class instances are refused with class and reason', () => {
  // Each refusal names the top-level class and where the problem is.
  const cyclic = { name: 'loop' };
  cyclic.self = cyclic;
  const deepCycle = { list: [] };
  let node = deepCycle;
  for (let i = 0; i < 200; i += 1) node = node.list[0] = { list: [] };
  node.list.push(deepCycle);
  class Order {
    constructor() {
      this.id = 1;
    }
  }
  class Secret {
    #pin = 1234;
    get hint() {
      return this.#pin > 0;
    }
  }
  class AppError extends Error {}
  const cases = [
    [{ f() {} }, 'Object', /function.*\$\.f/],
    [{ s: Symbol('x') }, 'Object', /symbol/],
    [{ [Symbol('k')]: 1 }, 'Object', /symbol-keyed/],
    [Promise.resolve(1), 'Promise', /Promise/],
    [{ w: new WeakMap() }, 'Object', /WeakMap/],
    [[new WeakSet()], 'Array', /WeakSet/],
    [new SharedArrayBuffer(4), 'SharedArrayBuffer', /SharedArrayBuffer/],
    [cyclic, 'Object', /cycle.*\$\.self/],
    [deepCycle, 'Object', /cycle/],
    [new Order(), 'Order', /class Order/],
    [{ nested: new Secret() }, 'Object', /class Secret.*\$\.nested/],
    [new AppError('x'), 'AppError', /class AppError/],
    [Object.assign(new Map(), { extra: 1 }), 'Map', /extra own properties/],
    [{ [`\ud800`]: 1 }, 'Object', /lone surrogate/],
  ];
  for (const [value, className, reason] of cases) {
    assert.throws(() => encodeTagged(value), (e) =>
      e instanceof EncodeRefusal && e.className === className && reason.test(e.reason), String(reason));
  }
});

test('a throwing getter or a Proxy is refused with the reason, never thrown at the caller', () => {
  // The refusal says where and what threw; nothing but EncodeRefusal escapes.
  const getter = { ok: 1, get bad() { throw new Error('getter!'); } };
  const trap = new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('keys'); } });
  const revocable = Proxy.revocable({}, {});
  revocable.revoke();
  const hostile = { get bad() { throw { get message() { throw new Error('again'); } }; } };
  const cases = [
    [getter, /\$\.bad.*getter!/],
    [{ inner: trap }, /\$\.inner.*keys/],
    [trap, /keys/],
    [revocable.proxy, /revoked/],
    [hostile, /unprintable/],
  ];
  for (const [value, reason] of cases) {
    assert.throws(() => encodeTagged(value), (e) => e instanceof EncodeRefusal && reason.test(e.reason), String(reason));
  }
});

test('malformed tagged JSON is a SyntaxError', () => {
  // Never a half-decoded value.
  for (const text of ['{"$t":"nope"}', '{', '{"$t":"node","i":0}', '{"$t":"graph","v":{"$t":"node","i":3},"n":[]}',
    '{"$t":"graph","v":{"$t":"node","i":0},"n":[[{"$t":"node","i":0}]]}', '{"$t":"arraybuffer","b":"***"}',
    '{"$t":"typed","c":"Float64Array","b":"AAA="}', '{"$t":"typed","c":"Function","v":[]}', '{"$t":"array","n":-1,"v":{}}',
    '{"$t":"object","v":[1]}', '{"$t":"map","v":[[1]]}']) {
    assert.throws(() => decodeTagged(text), SyntaxError, text);
  }
});

test('journals written before these tags still decode as they did', () => {
  // Legacy forms: typed arrays as element lists, class instances as plain objects.
  assert.deepEqual(decodeTagged('{"$t":"typed","c":"Float64Array","v":[1.5,null]}'), new Float64Array([1.5, 0]));
  assert.deepEqual(decodeTagged('{"$t":"object","c":"Order","v":{"id":1}}'), { id: 1 });
});
