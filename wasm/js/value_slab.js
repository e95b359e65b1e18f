// The JS side of a message: the value stays here, in a slab indexed by slot,
// and the core's Message carries only the slot number. The core frees a slot
// (releaseMany below, in batches of up to 256, and after every driver
// slice) when it destroys the last copy of its Message, so a value lives as
// long as the core holds the message (queued, stashed, captured as a dead
// letter). Free slots are reused in LIFO order, so a steady stream of
// messages allocates nothing.
import { core } from './core_loader.js';
import { classNameOf } from './tagged_json.js';

// Values live in pages of PAGE_SIZE slots, allocated once and never moved: a
// burst of a million queued messages grows the slab by pages instead of
// copying one ever larger array (each copy was old-space garbage that cost a
// full mark-compact). A page is allocated at its full length and not
// filled: a slot is always written (put) before it is read.
const PAGE_BITS = 16;
const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;
const pages = [];
let highWater = 0;  // slots ever handed out; every slot below is in a page
// The free slots are a list threaded through the slots themselves: a free
// slot holds the next free slot's number (a small integer, END for none).
// Releasing is one store per slot, which also drops the value (nothing is
// kept alive by a free slot), and there is no separate stack to copy into
// or grow.
const END = -1;
let freeHead = END;
let freeCount = 0;

function freshSlot() {
  const slot = highWater++;
  if ((slot & PAGE_MASK) === 0) pages.push(new Array(PAGE_SIZE));
  return slot;
}

export function put(value) {
  let slot = freeHead;
  if (slot === END) {
    slot = freshSlot();
  } else {
    freeCount -= 1;
    freeHead = pages[slot >>> PAGE_BITS][slot & PAGE_MASK];
  }
  pages[slot >>> PAGE_BITS][slot & PAGE_MASK] = value;
  return slot;
}

// The value in a slot (for a free slot, its link: only live slots are read).
export function valueAt(slot) {
  return pages[slot >>> PAGE_BITS][slot & PAGE_MASK];
}

// Slots in use (the core hands freed slots over in batches: flush them first).
export function liveSlots() {
  core._mr_flush_released_slots();
  return highWater - freeCount;
}

// The core's imports for the slab (EM_JS in wasm/src/js_value.cpp and
// js_priority.cpp), installed before anything can make a message.
function releaseMany(slots, count) {
  const base = slots >>> 2;
  // Re-read HEAPU32 each time: memory growth replaces the view.
  const heap = core.HEAPU32;
  let head = freeHead;
  for (let i = base, last = base + count; i < last; i += 1) {
    const slot = heap[i];
    pages[slot >>> PAGE_BITS][slot & PAGE_MASK] = head;
    head = slot;
  }
  freeHead = head;
  freeCount += count;
}
// A PriorityMailbox's rank function (kept in a slot) on a message (js_priority.cpp).
const rank = (fn, slot) => valueAt(fn)(valueAt(slot));
const rankNumber = (fn, value) => valueAt(fn)(value);  // a number told as itself
core.mrSetHotImports({ releaseMany, rank, rankNumber });
core.mrValue = valueAt;
core.mrPut = put;
// Class names for the core (inspection, metric labels, dead-letter records):
// interned, so the core asks for each distinct name's text only once.
const classIds = new Map();
const classNames = [];
core.mrClassId = (slot) => {
  const name = classNameOf(valueAt(slot));
  let id = classIds.get(name);
  if (id === undefined) {
    id = classNames.length;
    classNames.push(name);
    classIds.set(name, id);
  }
  return id;
};
core.mrClassName = (id) => classNames[id];
