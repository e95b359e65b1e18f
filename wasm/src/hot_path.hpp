// The per-message entry points JS calls without embind (raw exports, called as
// Module._mr_*): integers in (ref id, value slot, sender id), a status integer
// out. A failure (MailboxFullError under reject, a released system) is kept
// here and fetched as an error record by take_tell_error(), only then.
#pragma once

#include <emscripten/val.h>

namespace mailroom::wasm {

// Status of a raw call.
enum TellStatus : int { kTellOk = 0, kTellFailed = 1 };

// { error: record } for the last failed raw call (then forgotten).
emscripten::val take_tell_error();

}  // namespace mailroom::wasm
