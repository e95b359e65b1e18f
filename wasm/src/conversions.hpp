// Conversions between core values and JS values: messages (JS values stay the
// same object; framework messages become their JS classes), envelopes as
// { message, senderId, senderPath, replay } records, refs as { id, path }.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "mailroom/actor_ref.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/message.hpp"
#include "wire_codes.hpp"

namespace mailroom::wasm {

// system_id: the system whose release forgets refs created on the way (0: none).
emscripten::val message_to_js(const Message& message, int system_id);
Message message_from_js(emscripten::val message, int special, std::uint32_t ref_id);

emscripten::val envelope_to_js(const Envelope& envelope, int system_id);
// From { message, senderId, special, replay, refId? }.
Envelope envelope_from_js(const emscripten::val& record);

// { id, path } for a ref, null for an empty one.
emscripten::val ref_to_js(const ActorRef& ref, int system_id);
std::uint32_t ref_id(const ActorRef& ref, int system_id);
ActorRef ref_from_id(std::uint32_t id);

// "mailroom://<system>/user/a" for "/user/a" (full paths pass unchanged).
std::string full_path(const std::string& path, int system_id);

}  // namespace mailroom::wasm
