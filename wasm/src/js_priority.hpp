// A JS priorityFor as the core's rank function: one JS call per message with
// two value slots (the function's and the message's), no embind on the way.
#pragma once

#include <emscripten/val.h>

#include "mailroom/priority_mailbox_options.hpp"

namespace mailroom::wasm {

// fn: mailboxes.js's rank wrapper (NaN for a throw or a non-number).
PriorityFunction js_priority_for(const emscripten::val& fn);

}  // namespace mailroom::wasm
