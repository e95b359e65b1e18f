#include "js_priority.hpp"

#include <emscripten/emscripten.h>

#include <memory>

#include "conversions.hpp"
#include "js_value.hpp"

// value_slab.js: the slot's function on the slot's value (hot_imports.js).
EM_JS(double, mr_rank, (std::uint32_t fn, std::uint32_t slot), { return mrRankImpl(fn, slot); });
EM_JS(double, mr_rank_number, (std::uint32_t fn, double value),
      { return mrRankNumberImpl(fn, value); });

namespace mailroom::wasm {

PriorityFunction js_priority_for(const emscripten::val& fn) {
  // The function lives in the value slab as long as the mailbox keeps it.
  auto slot = std::make_shared<const JsValue>(fn);
  return [slot](const Envelope& envelope) {
    if (const auto* js = envelope.message.get_if<JsValue>())
      return mr_rank(slot->slot(), js->slot());
    if (const auto* number = envelope.message.get_if<JsNumber>())
      return mr_rank_number(slot->slot(), number->value);
    const JsValue framework(message_to_js(envelope.message, 0));  // PoisonPill, Terminated, ...
    return mr_rank(slot->slot(), framework.slot());
  };
}

}  // namespace mailroom::wasm
