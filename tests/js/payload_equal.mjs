// Deep equality for payload tests, without recursion (node:util's
// isDeepStrictEqual overflows on 10,000 levels): same prototype, same own
// enumerable keys (symbols and holes included), Object.is for primitives,
// bytes for binary data, order for Map and Set entries, name/message/cause/
// errors for errors, the path for ActorRefs, own keys in the same order, and
// the same sharing (an object reached twice in one value is one object reached
// twice in the other).
import { ActorRef } from 'mailroom';

const bytesOf = (v) => (v instanceof ArrayBuffer ? new Uint8Array(v)
  : new Uint8Array(v.buffer, v.byteOffset, v.byteLength));

function sameBytes(a, b) {
  const x = bytesOf(a);
  const y = bytesOf(b);
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i += 1) if (x[i] !== y[i]) return false;
  return true;
}

const ownEnumerable = (v) => [...Object.keys(v), ...Object.getOwnPropertySymbols(v)
  .filter((s) => Object.prototype.propertyIsEnumerable.call(v, s))];

// '' when equal, else where and how they differ.
export function payloadDifference(expected, actual) {
  const pairs = new Map();  // expected object → actual object
  const stack = [[expected, actual, '$']];
  while (stack.length > 0) {
    const [a, b, path] = stack.pop();
    if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
      if (!Object.is(a, b)) return `${path}: ${String(a)} vs ${String(b)}`;
      continue;
    }
    if (pairs.has(a)) {
      if (pairs.get(a) !== b) return `${path}: sharing differs`;
      continue;
    }
    pairs.set(a, b);
    if (a instanceof ActorRef) {
      if (!(b instanceof ActorRef) || a.path !== b.path) return `${path}: ActorRef ${a.path} vs ${b?.path}`;
      continue;
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: prototype differs`;
    const push = (x, y, where) => stack.push([x, y, where]);
    if (a instanceof Date) {
      if (!Object.is(a.getTime(), b.getTime())) return `${path}: date differs`;
    } else if (a instanceof RegExp) {
      if (a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return `${path}: regexp differs`;
    } else if (ArrayBuffer.isView(a) || a instanceof ArrayBuffer) {
      if (!sameBytes(a, b)) return `${path}: bytes differ`;
      if (ArrayBuffer.isView(a) && !(a instanceof DataView)) continue;  // indices are the bytes
    } else if (a instanceof Map || a instanceof Set) {
      if (a.size !== b.size) return `${path}: size ${a.size} vs ${b.size}`;
      const x = [...a];
      const y = [...b];
      x.forEach((item, i) => push(item, y[i], `${path}.<${i}>`));
    } else if (a instanceof Error) {
      for (const key of ['name', 'message']) if (a[key] !== b[key]) return `${path}.${key}: ${a[key]} vs ${b[key]}`;
      for (const key of ['cause', 'errors']) {
        const has = Object.prototype.hasOwnProperty.call(a, key);
        if (has !== Object.prototype.hasOwnProperty.call(b, key)) return `${path}.${key}: presence differs`;
        if (has) push(a[key], b[key], `${path}.${key}`);
      }
    } else if (a instanceof Number || a instanceof String || a instanceof Boolean || a instanceof BigInt) {
      if (!Object.is(a.valueOf(), b.valueOf())) return `${path}: boxed value differs`;
    }
    if (Array.isArray(a) && a.length !== b.length) return `${path}: length ${a.length} vs ${b.length}`;
    const keys = ownEnumerable(a);
    const other = ownEnumerable(b);
    if (keys.length !== other.length) return `${path}: keys [${keys.map(String)}] vs [${other.map(String)}]`;
    for (let i = keys.length - 1; i >= 0; i -= 1) {
      const key = keys[i];
      if (other[i] !== key) return `${path}: key order [${keys.map(String)}] vs [${other.map(String)}]`;
      push(a[key], b[key], `${path}.${String(key)}`);
    }
  }
  return '';
}
