// JsValue: a JS value carried inside a core Message, so the very object a JS
// caller sent is what a receiver, a drop observer or a dead-letter entry sees.
#pragma once

#include <emscripten/val.h>

#include <string>

#include "mailroom/message.hpp"

namespace mailroom::wasm {

struct JsValue {
  emscripten::val value;
};

// The JS class name of a value (constructor name, or typeof for a primitive).
std::string js_class_name(const emscripten::val& value);

}  // namespace mailroom::wasm

namespace mailroom {

// Inspection, metrics labels and degraded dead letters name a JS message by its
// JS class, not by "mailroom::wasm::JsValue".
template <>
struct MessageTraits<wasm::JsValue> {
  static std::string type_name(const wasm::JsValue& v) { return wasm::js_class_name(v.value); }
};

}  // namespace mailroom
