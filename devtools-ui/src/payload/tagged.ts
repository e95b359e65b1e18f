// Payloads as the DevTools protocol carries them: {kind:'captured', type, tag,
// value} (tagged JSON from the system's payload codecs) or {kind:'degraded'}.
// Turns them back into the values the payload tree renders: a JS value in the
// wasm build's `$t` form becomes the Map, Set, Date, BigInt ... it was.
import type { DeadLetterPayload } from '../types';

export interface WirePayload {
  kind: 'captured' | 'degraded';
  type?: string;
  tag?: string | null;
  value?: unknown;
  reason?: string;
  className?: string;
}

type Node = { $t?: string; v?: unknown; c?: string } | unknown;
type Tagged = { $t?: string; v?: unknown; c?: string; [key: string]: unknown };

// Deeper than this the panel shows a marker: its tree is depth-bounded anyway,
// and this decoder recurses (the wasm codec, wasm/js/tagged_json.js, does not).
const MAX_DEPTH = 500;
const TOO_DEEP = '<deeper levels not shown>';

function bytesOf(text: unknown): Uint8Array<ArrayBuffer> {
  const binary = atob(String(text ?? ''));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function textOf(field: unknown): string {
  if (typeof field === 'string') return field;
  const units = (field as Tagged | null)?.v;
  return Array.isArray(units) ? units.map((u) => String.fromCharCode(Number(u))).join('') : String(field ?? '');
}

// One decoder per payload: the graph's side table ({"$t":"node","i":k}) is
// decoded once per slot, so a shared object shows as one object.
function decoderFor(table: unknown[] | null) {
  const slots = new Map<number, unknown>();
  const define = (target: object, key: string, value: unknown) =>
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  const fieldsInto = (target: object, n: Tagged, depth: number) => {
    const fields = (n.v ?? {}) as Record<string, Node>;
    const keys = Array.isArray(n.k) && n.k.length === Object.keys(fields).length ? (n.k as string[]) : Object.keys(fields);
    for (const key of keys) define(target, key, decode(fields[key], depth + 1));
    return target;
  };
  function decode(node: Node, depth: number): unknown {
    if (node === null || typeof node !== 'object') return node;
    if (depth > MAX_DEPTH) return TOO_DEEP;
    if (Array.isArray(node)) return node.map((child) => decode(child, depth + 1));
    const n = node as Tagged;
    switch (n.$t) {
      case 'undefined':
        return undefined;
      case 'number':
        return Number(n.v);
      case 'bigint':
        return BigInt(String(n.v));
      case 'date':
        return new Date(n.v === null ? NaN : Number(n.v));
      case 'regexp':
        return new RegExp(textOf(n.v), String(n.f ?? ''));
      case 'utf16':
        return textOf(n);
      case 'map':
        return new Map((n.v as [Node, Node][]).map(([k, v]) => [decode(k, depth + 1), decode(v, depth + 1)]));
      case 'set':
        return new Set((n.v as Node[]).map((child) => decode(child, depth + 1)));
      case 'typed': {
        const Ctor = (globalThis as Record<string, unknown>)[n.c ?? ''] as
          | { from?: (v: unknown[], f: (x: unknown) => unknown) => unknown; new (b: ArrayBuffer): unknown }
          | undefined;
        if (typeof n.b === 'string' && typeof Ctor === 'function') return new Ctor(bytesOf(n.b).buffer);
        if (typeof n.b === 'string') return bytesOf(n.b);  // Node's Buffer: its bytes
        const big = (n.c ?? '').startsWith('Big');
        return typeof Ctor?.from === 'function' ? Ctor.from(n.v as unknown[], (x) => (big ? BigInt(String(x)) : x)) : n.v;
      }
      case 'arraybuffer':
        return bytesOf(n.b).buffer;
      case 'dataview':
        return new DataView(bytesOf(n.b).buffer);
      case 'boxed':
        return Object(decode(n.v, depth + 1));
      case 'actorref':
        return String(n.v);  // a path: the panel has no refs
      case 'error': {
        const error = new Error(textOf(n.m ?? ''));
        const name = n.c;
        if (typeof name === 'string' && name !== 'Error') Object.defineProperty(error, 'name', { value: name, configurable: true });
        if ('cause' in n) define(error, 'cause', decode(n.cause, depth + 1));
        if ('errors' in n) define(error, 'errors', decode(n.errors, depth + 1));
        return fieldsInto(error, n, depth);
      }
      case 'array': {
        const array = new Array(Number(n.n) || 0);
        if (Array.isArray(n.v)) n.v.forEach((child, i) => (array[i] = decode(child, depth + 1)));
        else fieldsInto(array, n, depth);
        return array;
      }
      case 'node': {
        const slot = Number(n.i);
        if (slots.has(slot)) return slots.get(slot);
        if (table === null || !(slot >= 0 && slot < table.length)) return node;
        slots.set(slot, TOO_DEEP);  // a reference back into itself shows a marker, never loops
        const value = decode(table[slot], depth + 1);
        slots.set(slot, value);
        return value;
      }
      case 'object':
        return fieldsInto(n.p === null ? Object.create(null) : {}, n, depth);
      default:
        // Not a marker we know: shown as it came, never dropped.
        return node;
    }
  }
  return decode;
}

function decodeJsValue(node: Node): unknown {
  const n = node as Tagged | null;
  if (n !== null && typeof n === 'object' && !Array.isArray(n) && n.$t === 'graph' && Array.isArray(n.n)) {
    return decoderFor(n.n)(n.v, 0);
  }
  return decoderFor(null)(node, 0);
}

export function decodePayload(wire: WirePayload): DeadLetterPayload {
  if (wire.kind === 'degraded') {
    return { kind: 'degraded', className: wire.className ?? 'unknown', reason: wire.reason ?? '' };
  }
  if (wire.tag === null || wire.tag === undefined) {
    // The process has no codec for this type: its type and why are all it can send.
    return { kind: 'degraded', className: wire.type ?? 'unknown', reason: wire.reason ?? 'no payload codec' };
  }
  if (wire.tag === 'js') {
    try {
      return { kind: 'captured', message: decodeJsValue(wire.value) };
    } catch {
      return { kind: 'captured', message: wire.value };
    }
  }
  return { kind: 'captured', message: wire.value };
}
