// The JS side of a message: the value stays here, in a slab indexed by slot,
// and the core's Message carries only the slot number. The core frees a slot
// (Module.mrReleaseMany, in batches of up to 256, and after every driver
// slice) when it destroys the last copy of its Message, so a value lives as
// long as the core holds the message (queued, stashed, captured as a dead
// letter). Free slots are reused in LIFO order, so a steady stream of
// messages allocates nothing.
import { core } from './core_loader.js';

export const values = [];
const free = [];

// Counts live slots (the leak test checks it returns to where it started).
let live = 0;

export function put(value) {
  live += 1;
  if (free.length > 0) {
    const slot = free.pop();
    values[slot] = value;
    return slot;
  }
  values.push(value);
  return values.length - 1;
}

export function release(slot) {
  live -= 1;
  values[slot] = undefined;
  free.push(slot);
}

// Slots in use (the core hands freed slots over in batches: flush them first).
export function liveSlots() {
  core._mr_flush_released_slots();
  return live;
}

// The core's imports for the slab (EM_JS in wasm/src/js_value.cpp), installed
// before anything can make a message.
core.mrReleaseMany = (slots, count) => {
  const heap = core.HEAPU32;  // re-read: memory growth replaces the view
  const base = slots >>> 2;
  for (let i = 0; i < count; i += 1) release(heap[base + i]);
};
core.mrValue = (slot) => values[slot];
core.mrPut = put;
// A PriorityMailbox's rank function (kept in a slot) on a message (mailbox_api.cpp).
core.mrRank = (fn, slot) => values[fn](values[slot]);
