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

function decodeJsValue(node: Node): unknown {
  if (node === null || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map(decodeJsValue);
  const n = node as { $t?: string; v?: unknown; c?: string };
  switch (n.$t) {
    case 'undefined':
      return undefined;
    case 'number':
      return Number(n.v);
    case 'bigint':
      return BigInt(String(n.v));
    case 'date':
      return new Date(n.v === null ? NaN : Number(n.v));
    case 'map':
      return new Map((n.v as [Node, Node][]).map(([k, v]) => [decodeJsValue(k), decodeJsValue(v)]));
    case 'set':
      return new Set((n.v as Node[]).map(decodeJsValue));
    case 'typed': {
      const Ctor = (globalThis as Record<string, unknown>)[n.c ?? ''] as { from?: (v: unknown[], f: (x: unknown) => unknown) => unknown } | undefined;
      const big = (n.c ?? '').startsWith('Big');
      return typeof Ctor?.from === 'function' ? Ctor.from(n.v as unknown[], (x) => (big ? BigInt(String(x)) : x)) : n.v;
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries((n.v ?? {}) as Record<string, Node>)) out[key] = decodeJsValue(child);
      return out;
    }
    default:
      // Not a marker we know: shown as it came, never dropped.
      return node;
  }
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
