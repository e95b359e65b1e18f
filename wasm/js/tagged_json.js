// Tagged JSON for JS payloads: what a persistent dead-letter queue writes for a
// JS message. Plain data, Date, Map, Set, BigInt, undefined, NaN/±Infinity and
// -0 round-trip. Functions, symbols, promises, weak collections and cycles are
// refused with an EncodeRefusal naming the class and the reason, never
// silently corrupted. Non-JSON values are wrapped as {"$t": tag, "v": ...};
// every plain object is wrapped too, so a user key named "$t" is never misread.

export class EncodeRefusal extends Error {
  constructor(className, reason) {
    super(reason);
    this.name = 'EncodeRefusal';
    this.className = className;
    this.reason = reason;
  }
}

// Constructor name of a value, or typeof for a primitive.
export function classNameOf(value) {
  if (value === null) return 'null';
  if (typeof value === 'object' || typeof value === 'function') {
    return value.constructor?.name || 'Object';
  }
  return typeof value;
}

const refusedClasses = new Set(['Promise', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry']);

function encodeValue(value, path, seen, root) {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (Number.isNaN(value)) return { $t: 'number', v: 'NaN' };
      if (value === Infinity) return { $t: 'number', v: 'Infinity' };
      if (value === -Infinity) return { $t: 'number', v: '-Infinity' };
      if (Object.is(value, -0)) return { $t: 'number', v: '-0' };
      return value;
    case 'undefined':
      return { $t: 'undefined' };
    case 'bigint':
      return { $t: 'bigint', v: value.toString() };
    case 'function':
      throw new EncodeRefusal(classNameOf(root), `a function cannot be journaled (at ${path})`);
    case 'symbol':
      throw new EncodeRefusal(classNameOf(root), `a symbol cannot be journaled (at ${path})`);
    default:
      break;
  }
  if (value === null) return null;
  if (seen.has(value)) {
    throw new EncodeRefusal(classNameOf(root), `a cycle cannot be journaled (at ${path})`);
  }
  const cls = classNameOf(value);
  if (value instanceof Promise || refusedClasses.has(cls)) {
    throw new EncodeRefusal(classNameOf(root), `a ${cls} cannot be journaled (at ${path})`);
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item, i) => encodeValue(item, `${path}[${i}]`, seen, root));
    if (value instanceof Date) {
      const time = value.getTime();
      return { $t: 'date', v: Number.isNaN(time) ? null : time };
    }
    if (value instanceof Map) {
      const entries = [];
      let i = 0;
      for (const [k, v] of value) {
        entries.push([
          encodeValue(k, `${path}.<key ${i}>`, seen, root),
          encodeValue(v, `${path}.<value ${i}>`, seen, root),
        ]);
        i += 1;
      }
      return { $t: 'map', v: entries };
    }
    if (value instanceof Set) {
      return { $t: 'set', v: [...value].map((item, i) => encodeValue(item, `${path}.<${i}>`, seen, root)) };
    }
    if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
      return { $t: 'typed', c: cls, v: Array.from(value, (x) => (typeof x === 'bigint' ? x.toString() : x)) };
    }
    const fields = {};
    for (const key of Object.keys(value)) {
      fields[key] = encodeValue(value[key], `${path}.${key}`, seen, root);
    }
    const out = { $t: 'object', v: fields };
    if (cls !== 'Object') out.c = cls;  // informational: decoding gives a plain object
    return out;
  } finally {
    seen.delete(value);
  }
}

// JS value → tagged JSON text. Throws EncodeRefusal.
export function encodeTagged(value) {
  return JSON.stringify(encodeValue(value, '$', new Set(), value));
}

function decodeValue(node) {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(decodeValue);
  switch (node.$t) {
    case 'undefined':
      return undefined;
    case 'number':
      return Number(node.v);  // "NaN", "Infinity", "-Infinity", "-0"
    case 'bigint':
      return BigInt(node.v);
    case 'date':
      return new Date(node.v === null ? NaN : node.v);
    case 'map':
      return new Map(node.v.map(([k, v]) => [decodeValue(k), decodeValue(v)]));
    case 'set':
      return new Set(node.v.map(decodeValue));
    case 'typed': {
      const Ctor = globalThis[node.c];
      if (typeof Ctor !== 'function') return node.v;
      return Ctor.from(node.v, (x) => (node.c.startsWith('Big') ? BigInt(x) : x));
    }
    case 'object': {
      const out = {};
      for (const [key, child] of Object.entries(node.v)) out[key] = decodeValue(child);
      return out;
    }
    default:
      throw new SyntaxError(`tagged JSON: unknown tag ${JSON.stringify(node.$t)}`);
  }
}

// Tagged JSON text → JS value. Throws SyntaxError on malformed input.
export function decodeTagged(text) {
  return decodeValue(JSON.parse(text));
}
