// The tagged-JSON codec bound to the runtime: an ActorRef is journaled as its
// path and comes back as a ref to that path in the restored process — the
// live actor's ref when one is there, else a ref that resolves the path at
// each tell (a tell to it dead-letters while nothing lives there).
import { ActorRef, refFor } from './actor_ref.js';
import { systems } from './actor_system.js';
import { decodeTagged, encodeTagged } from './tagged_json.js';

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
