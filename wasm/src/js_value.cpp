#include "js_value.hpp"

#include <emscripten/emscripten.h>

#include <vector>

// The slab lives in wasm/js/value_slab.js, which installs these on Module.
EM_JS(void, mr_slots_release, (const std::uint32_t* slots, std::uint32_t count),
      { mrReleaseManyImpl(slots, count); });
EM_JS(int, mr_slot_value, (std::uint32_t slot), { return Emval.toHandle(Module.mrValue(slot)); });
EM_JS(std::uint32_t, mr_slot_put, (int handle), { return Module.mrPut(Emval.toValue(handle)); });
EM_JS(std::uint32_t, mr_slot_class, (std::uint32_t slot), { return Module.mrClassId(slot); });

namespace mailroom::wasm {

using emscripten::val;

namespace {
// Freed slots wait here and go to JS in batches: one JS call per batch, not
// per message. A value therefore stays reachable at most one batch longer;
// every driver slice and every slab count flushes the rest.
constexpr std::uint32_t kReleaseBatch = 256;
std::uint32_t released[kReleaseBatch];
std::uint32_t released_count = 0;

// Extra owners of a slot beyond the first, by slot (grown on the first copy
// of a high slot; almost every message has none, so no count per message).
// Growing it can only fail by running out of memory, which aborts in wasm.
std::vector<std::uint32_t> extra_owners;
}  // namespace

void flush_released_slots() noexcept {
  if (released_count == 0) return;
  const std::uint32_t count = released_count;
  released_count = 0;
  mr_slots_release(released, count);
}

JsValue::JsValue(const val& value) : slot_(mr_slot_put(reinterpret_cast<int>(value.as_handle()))) {}

JsValue::JsValue(const JsValue& other) noexcept : slot_(other.slot_) {
  if (slot_ == kNone) return;
  if (extra_owners.size() <= slot_) extra_owners.resize(slot_ + 1 + slot_ / 2);
  ++extra_owners[slot_];
}

JsValue::~JsValue() {
  if (slot_ == kNone) return;
  if (slot_ < extra_owners.size() && extra_owners[slot_] != 0) {
    --extra_owners[slot_];  // another copy still holds it
    return;
  }
  released[released_count++] = slot_;
  if (released_count == kReleaseBatch) flush_released_slots();
}

std::string JsValue::class_name() const {
  // Class names are interned on the JS side; each name crosses once.
  static std::vector<std::string> names;
  const std::uint32_t id = mr_slot_class(slot_);
  while (names.size() <= id) {
    names.push_back(val::module_property("mrClassName")(names.size()).as<std::string>());
  }
  return names[id];
}

val JsValue::value() const {
  return val::take_ownership(reinterpret_cast<emscripten::EM_VAL>(mr_slot_value(slot_)));
}

}  // namespace mailroom::wasm

extern "C" EMSCRIPTEN_KEEPALIVE void mr_flush_released_slots() {
  mailroom::wasm::flush_released_slots();
}
