// The tagged-JSON codec bound to the runtime: an ActorRef is journaled as its
// path and comes back as a ref to that path in the restored process — the
// live actor's ref when one is there, else a ref that resolves the path at
// each tell (a tell to it dead-letters while nothing lives there).
import { ActorRef, refFor } from './actor_ref.js';
import { systems } from './actor_system.js';
import { core } from './core_loader.js';
import { EncodeRefusal, decodeTagged, encodeTagged } from './tagged_json.js';
import { valueAt } from './value_slab.js';

function systemNameOf(path) {
  const scheme = path.indexOf('://');
  if (scheme < 0) return null;
  const end = path.indexOf('/', scheme + 3);
  return path.slice(scheme + 3, end < 0 ? undefined : end);
}

const refs = {
  pathOf: (value) => (value instanceof ActorRef && typeof value.path === 'string' ? value.path : undefined),
  fromPath(path) {
    const name = systemNameOf(path);
    for (const system of systems.values()) {
      if (system.name !== name || system._terminating) continue;
      const live = system.resolve(path);
      if (live) return live;
    }
    return refFor(0, path);
  },
};

export const encodePayload = (value) => encodeTagged(value, refs);
export const decodePayload = (text) => decodeTagged(text, refs);

// Why a value could not be encoded. Never throws (a Proxy, a throwing getter).
function refusalReason(error) {
  if (error instanceof EncodeRefusal) return error.reason;
  try {
    return String(error?.message ?? error);
  } catch {
    return 'the encoder failed';
  }
}

// The core's import for a persistent capture (EM_JS in wasm/src/payload_codecs.cpp):
// encodes values[slot] and writes the text as UTF-8 into wasm memory at
// [at, at + capacity). Returns the bytes written; -1: refused (reason in
// mrTakeEncodeRefusal); -2: it does not fit (kept for the next call with
// this slot, which brings mrEncodedPayloadSize bytes).
const utf8 = new TextEncoder();
let kept = null;  // { slot, text } that did not fit
let refusal = '';

function writeUtf8(text, at, capacity) {
  if (text.length > capacity) return -1;
  // Re-read: the encoder may have called into wasm and grown its memory.
  const heap = core.HEAPU8;
  let i = 0;
  for (; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) break;
    heap[at + i] = c;
  }
  if (i === text.length) return i;
  const rest = text.slice(i);
  const { read, written } = utf8.encodeInto(rest, heap.subarray(at + i, at + capacity));
  return read === rest.length ? i + written : -1;
}

core.mrEncodePayload = (slot, at, capacity) => {
  let text;
  if (kept !== null && kept.slot === slot) {
    text = kept.text;
  } else {
    try {
      text = encodePayload(valueAt(slot));
    } catch (error) {
      kept = null;
      refusal = refusalReason(error);
      return -1;
    }
  }
  const written = writeUtf8(text, at, capacity);
  kept = written < 0 ? { slot, text } : null;
  return written < 0 ? -2 : written;
};
// Room for the kept text: at most 3 bytes per UTF-16 unit.
core.mrEncodedPayloadSize = () => 3 * kept.text.length;
core.mrTakeEncodeRefusal = () => {
  const reason = refusal;
  refusal = '';
  return reason;
};
