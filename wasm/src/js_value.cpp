#include "js_value.hpp"

#include <emscripten/emscripten.h>

// The slab lives in wasm/js/value_slab.js; hooks.js installs these on Module.
EM_JS(void, mr_slot_release, (std::uint32_t slot), { Module.mrRelease(slot); });
EM_JS(int, mr_slot_value, (std::uint32_t slot), { return Emval.toHandle(Module.mrValue(slot)); });
EM_JS(std::uint32_t, mr_slot_put, (int handle), { return Module.mrPut(Emval.toValue(handle)); });

namespace mailroom::wasm {

using emscripten::val;

JsValue::JsValue(const val& value) : slot_(mr_slot_put(reinterpret_cast<int>(value.as_handle()))) {}

JsValue::~JsValue() {
  if (slot_ != kNone) mr_slot_release(slot_);
}

val JsValue::value() const {
  return val::take_ownership(reinterpret_cast<emscripten::EM_VAL>(mr_slot_value(slot_)));
}

}  // namespace mailroom::wasm
