// The JS side of a message: the value stays here, in a slab indexed by slot,
// and the core's Message carries only the slot number. The core frees a slot
// (Module.mrReleaseMany, in batches of up to 256, and after every driver
// slice) when it destroys the last copy of its Message, so a value lives as
// long as the core holds the message (queued, stashed, captured as a dead
// letter). Free slots are reused in LIFO order, so a steady stream of
// messages allocates nothing.
import { core } from './core_loader.js';
import { classNameOf } from './tagged_json.js';

export const values = [];
// Free slots, a stack in a typed array (no array growth or boxing per
// message); a slot in use is any index of `values` not on it.
let freeSlots = new Uint32Array(1024);
let freeTop = 0;

export function put(value) {
  if (freeTop > 0) {
    const slot = freeSlots[--freeTop];
    values[slot] = value;
    return slot;
  }
  values.push(value);
  return values.length - 1;
}

// Slots in use (the core hands freed slots over in batches: flush them first).
export function liveSlots() {
  core._mr_flush_released_slots();
  return values.length - freeTop;
}

// The core's imports for the slab (EM_JS in wasm/src/js_value.cpp), installed
// before anything can make a message.
core.mrReleaseMany = (slots, count) => {
  const base = slots >>> 2;
  // Re-read HEAPU32 each time: memory growth replaces the view.
  const freed = core.HEAPU32.subarray(base, base + count);
  for (let i = 0; i < count; i += 1) values[freed[i]] = undefined;
  if (freeTop + count > freeSlots.length) {
    const bigger = new Uint32Array(2 * Math.max(freeSlots.length, freeTop + count));
    bigger.set(freeSlots.subarray(0, freeTop));
    freeSlots = bigger;
  }
  freeSlots.set(freed, freeTop);
  freeTop += count;
};
core.mrValue = (slot) => values[slot];
core.mrPut = put;
// Class names for the core (inspection, metric labels, dead-letter records):
// interned, so the core asks for each distinct name's text only once.
const classIds = new Map();
const classNames = [];
core.mrClassId = (slot) => {
  const name = classNameOf(values[slot]);
  let id = classIds.get(name);
  if (id === undefined) {
    id = classNames.length;
    classNames.push(name);
    classIds.set(name, id);
  }
  return id;
};
core.mrClassName = (id) => classNames[id];
// A PriorityMailbox's rank function (kept in a slot) on a message (mailbox_api.cpp).
core.mrRank = (fn, slot) => values[fn](values[slot]);
