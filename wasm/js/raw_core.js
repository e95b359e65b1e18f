// The core's raw per-message exports (extern "C", no embind): integers in, a
// status integer out (0: done; 1: failed, and core.takeTellError() has the
// record). Emscripten's Module._fn is a forwarding wrapper until its first
// call, which swaps in the wasm export itself; each one is called once here
// with arguments that do nothing (ref and selection 0 name nothing), so what
// we keep is a plain wasm call.
import { core } from './core_loader.js';
import { SpecialMessage } from './closed_sets.js';
import { put } from './value_slab.js';

core._mr_tell(0, put(undefined), 0);  // frees the slot at once: ref 0 is nobody
core._mr_tell_number(0, 0, 0);
core._mr_tell_special(0, SpecialMessage.PoisonPill, 0);
core._mr_selection_tell(0, 0, SpecialMessage.PoisonPill, 0);
core.takeTellError();  // selection 0 answered "terminated"

export const rawTell = core._mr_tell;
// A number crosses as a double and never takes a slab slot.
export const rawTellNumber = core._mr_tell_number;
export const rawTellSpecial = core._mr_tell_special;
export const rawSelectionTell = core._mr_selection_tell;
