#include "conversions.hpp"

#include "js_hooks.hpp"
#include "js_value.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/dead_letter.hpp"
#include "mailroom/log_event.hpp"
#include "mailroom/mailbox_size_warning.hpp"
#include "mailroom/system_messages.hpp"
#include "ref_table.hpp"
#include "system_registry.hpp"

namespace mailroom::wasm {

using emscripten::val;

std::uint32_t ref_id(const ActorRef& ref, int system_id) {
  return RefTable::instance().id_of(ref, system_id);
}

ActorRef ref_from_id(std::uint32_t id) {
  return RefTable::instance().find(id);
}

val ref_to_js(const ActorRef& ref, int system_id) {
  if (!ref.valid()) return val::null();
  val out = val::object();
  out.set("id", ref_id(ref, system_id));
  out.set("path", ref.path());
  return out;
}

std::string full_path(const std::string& path, int system_id) {
  if (path.empty() || path.front() != '/') return path;
  const SystemHandle* handle = SystemRegistry::instance().find(system_id);
  return handle ? ActorPath::full(handle->name, path) : path;
}

namespace {
// The JS ref arguments (id, full path) for a ref that may be a ghost.
std::pair<std::uint32_t, std::string> ref_args(const ActorRef& ref, const std::string& local,
                                               int system_id) {
  if (ref.valid()) return {ref_id(ref, system_id), ref.path()};
  return {0u, full_path(local, system_id)};
}
}  // namespace

val message_to_js(const Message& message, int system_id) {
  if (const auto* js = message.get_if<JsValue>()) return js->value();
  if (const auto* number = message.get_if<JsNumber>()) return val(number->value);
  const val& h = hooks();
  if (message.is<PoisonPill>()) return h["poisonPill"]();
  if (message.is<Kill>()) return h["kill"]();
  if (const auto* t = message.get_if<Terminated>()) {
    return h["terminatedMessage"](ref_id(t->actor, system_id), t->actor.path());
  }
  if (const auto* d = message.get_if<DeadLetter>()) {
    auto [sid, spath] = ref_args(d->sender, d->sender_path, system_id);
    auto [rid, rpath] = ref_args(d->recipient, d->recipient_path, system_id);
    return h["deadLetter"](message_to_js(d->message, system_id), sid, spath, rid, rpath);
  }
  if (const auto* w = message.get_if<MailboxSizeWarning>()) {
    auto [id, path] = ref_args(w->actor, w->path, system_id);
    return h["sizeWarning"](id, path, static_cast<double>(w->size));
  }
  if (const auto* e = message.get_if<LogEvent>()) {
    return h["logEvent"](std::string(to_string(e->level)), e->source, e->message,
                         static_cast<double>(e->timestamp_ms));
  }
  // A C++ message JS has no class for: named, so it is at least recognisable.
  val out = val::object();
  out.set("type", message.type_name());
  return out;
}

Message message_from_js(val message, int special, std::uint32_t id) {
  switch (static_cast<SpecialMessage>(special)) {
    case SpecialMessage::kPoisonPill:
      return Message(PoisonPill{});
    case SpecialMessage::kKill:
      return Message(Kill{});
    case SpecialMessage::kTerminated:
      return Message(Terminated{ref_from_id(id)});
    case SpecialMessage::kNone:
      break;
  }
  return Message(JsValue{std::move(message)});
}

val envelope_to_js(const Envelope& envelope, int system_id) {
  val out = val::object();
  out.set("message", message_to_js(envelope.message, system_id));
  out.set("senderId", ref_id(envelope.sender, system_id));
  out.set("senderPath", envelope.sender.valid() ? envelope.sender.path() : std::string());
  out.set("replay", static_cast<double>(envelope.replay_entry));
  if (envelope.signal) out.set("signal", true);
  return out;
}

Envelope envelope_from_js(const val& record) {
  Envelope envelope;
  const int special = record["special"].isNumber() ? record["special"].as<int>() : 0;
  const std::uint32_t id = record["refId"].isNumber() ? record["refId"].as<std::uint32_t>() : 0;
  envelope.message = message_from_js(record["message"], special, id);
  if (record["senderId"].isNumber()) {
    envelope.sender = ref_from_id(record["senderId"].as<std::uint32_t>());
  }
  if (record["replay"].isNumber()) {
    envelope.replay_entry = static_cast<std::uint64_t>(record["replay"].as<double>());
  }
  envelope.signal = record["signal"].isTrue();
  return envelope;
}

}  // namespace mailroom::wasm
