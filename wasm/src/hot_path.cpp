#include "hot_path.hpp"

#include <emscripten/emscripten.h>

#include <cstdint>
#include <exception>
#include <optional>

#include "conversions.hpp"
#include "error_records.hpp"
#include "js_value.hpp"
#include "mailroom/system_messages.hpp"
#include "ref_table.hpp"
#include "selection_table.hpp"

namespace mailroom::wasm {

namespace {
std::exception_ptr& last_error() {
  static std::exception_ptr error;
  return error;
}

Message message_of(std::uint32_t slot, int special) {
  switch (static_cast<SpecialMessage>(special)) {
    case SpecialMessage::kPoisonPill:
      return Message(PoisonPill{});
    case SpecialMessage::kKill:
      return Message(Kill{});
    default:
      return Message(JsValue(slot));
  }
}

template <class F>
int status_of(F&& fn) noexcept {
  try {
    fn();
    return kTellOk;
  } catch (...) {
    last_error() = std::current_exception();
    return kTellFailed;
  }
}
}  // namespace

emscripten::val take_tell_error() {
  std::exception_ptr error = std::exchange(last_error(), nullptr);
  return error ? error_status(error) : emscripten::val::undefined();
}

}  // namespace mailroom::wasm

using mailroom::Message;
using mailroom::wasm::JsValue;
using mailroom::wasm::RefTable;
using mailroom::wasm::SelectionTable;

extern "C" {

// ref.tell(value, sender): the slot's owner from here on is the core Message.
EMSCRIPTEN_KEEPALIVE int mr_tell(std::uint32_t ref, std::uint32_t slot, std::uint32_t sender) {
  JsValue value(slot);
  const RefTable& refs = RefTable::instance();
  const mailroom::ActorRef& target = refs.get(ref);
  if (!target.valid()) return mailroom::wasm::kTellOk;  // its system was released
  return mailroom::wasm::status_of(
      [&] { target.tell(Message(std::move(value)), refs.get(sender)); });
}

// ref.tell(number, sender): the number itself, no slot.
EMSCRIPTEN_KEEPALIVE int mr_tell_number(std::uint32_t ref, double value, std::uint32_t sender) {
  const RefTable& refs = RefTable::instance();
  const mailroom::ActorRef& target = refs.get(ref);
  if (!target.valid()) return mailroom::wasm::kTellOk;
  return mailroom::wasm::status_of(
      [&] { target.tell(Message(mailroom::wasm::JsNumber{value}), refs.get(sender)); });
}

// ref.tell(PoisonPill | Kill, sender): a SpecialMessage code (wire_codes.hpp).
EMSCRIPTEN_KEEPALIVE int mr_tell_special(std::uint32_t ref, int special, std::uint32_t sender) {
  const RefTable& refs = RefTable::instance();
  const mailroom::ActorRef& target = refs.get(ref);
  if (!target.valid()) return mailroom::wasm::kTellOk;
  return mailroom::wasm::status_of(
      [&] { target.tell(mailroom::wasm::message_of(0, special), refs.get(sender)); });
}

// selection.tell(value, sender); slot is ignored for a special message.
EMSCRIPTEN_KEEPALIVE int mr_selection_tell(std::uint32_t selection, std::uint32_t slot, int special,
                                           std::uint32_t sender) {
  std::optional<JsValue> value;
  if (special == 0) value.emplace(slot);
  const mailroom::ActorSelection* target = SelectionTable::instance().get(selection);
  // Its system was released: as a tell to a ref of it (natively both are dead
  // letters; a released system has nowhere left to record one).
  if (target == nullptr) return mailroom::wasm::kTellOk;
  return mailroom::wasm::status_of([&] {
    Message message = value ? Message(std::move(*value)) : mailroom::wasm::message_of(0, special);
    target->tell(std::move(message), RefTable::instance().get(sender));
  });
}

}  // extern "C"
