// The tagged-JSON codec for persistent JS payloads: what round-trips and what
// is refused (degraded), never silently corrupted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EncodeRefusal, decodeTagged, encodeTagged } from 'mailroom';

test('plain data, Date, Map, Set, BigInt, undefined, NaN, ±Infinity and -0 round-trip', () => {
  // decode(encode(v)) is deep-equal to v, including the special numbers.
  const value = {
    text: 'a', n: 1.5, yes: true, none: null, list: [1, 'two', [3]],
    when: new Date(1_700_000_000_000), map: new Map([[1, { a: 1 }], ['k', new Set([2n])]]),
    big: -12345678901234567890n, missing: undefined, nan: NaN, inf: Infinity, ninf: -Infinity,
    $t: 'a user key named like the tag',
  };
  const back = decodeTagged(encodeTagged(value));
  assert.deepEqual(back, value);
  assert.ok(Object.is(decodeTagged(encodeTagged(-0)), -0));
  assert.equal(decodeTagged(encodeTagged(undefined)), undefined);
  const shared = { s: 1 };
  assert.deepEqual(decodeTagged(encodeTagged([shared, shared])), [{ s: 1 }, { s: 1 }]);
});

test('functions, symbols, promises, weak collections and cycles are refused with class and reason', () => {
  // Each refusal names the top-level class and where the problem is.
  const cyclic = { name: 'loop' };
  cyclic.self = cyclic;
  class Order {
    constructor() {
      this.pay = () => {};
    }
  }
  const cases = [
    [{ f() {} }, 'Object', /function.*\$\.f/],
    [{ s: Symbol('x') }, 'Object', /symbol/],
    [Promise.resolve(1), 'Promise', /Promise/],
    [{ w: new WeakMap() }, 'Object', /WeakMap/],
    [[new WeakSet()], 'Array', /WeakSet/],
    [cyclic, 'Object', /cycle.*\$\.self/],
    [new Order(), 'Order', /function/],
  ];
  for (const [value, className, reason] of cases) {
    assert.throws(() => encodeTagged(value), (e) =>
      e instanceof EncodeRefusal && e.className === className && reason.test(e.reason));
  }
});

test('malformed tagged JSON is a SyntaxError', () => {
  // Never a half-decoded value.
  assert.throws(() => decodeTagged('{"$t":"nope"}'), SyntaxError);
  assert.throws(() => decodeTagged('{'), SyntaxError);
});
