// The codec registry the dead-letter queues of JS systems use: JS values are
// journaled as tagged JSON by the JS codec (wasm/js/tagged_json.js) under the
// tag "js"; a refusal (function, symbol, promise, weak collection, cycle)
// makes the entry degraded with the JS class name and the reason.
#pragma once

#include <memory>

#include "mailroom/payload_codec_registry.hpp"

namespace mailroom::wasm {

// One registry shared by every system (it holds no per-system state).
std::shared_ptr<PayloadCodecRegistry> js_payload_codecs();

}  // namespace mailroom::wasm
