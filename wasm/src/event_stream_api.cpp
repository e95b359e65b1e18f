// system.eventStream for the framework event classes; JS classes are
// matched in wasm/js/event_stream.js.
#include <optional>
#include <typeindex>

#include "api.hpp"
#include "conversions.hpp"
#include "error_records.hpp"
#include "mailroom/dead_letter.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/log_event.hpp"
#include "mailroom/mailbox_size_warning.hpp"
#include "mailroom/system_messages.hpp"
#include "system_registry.hpp"

namespace mailroom::wasm::api {

namespace {
std::optional<std::type_index> topic_type(const std::string& topic) {
  if (topic == "DeadLetter") return std::type_index(typeid(DeadLetter));
  if (topic == "Terminated") return std::type_index(typeid(Terminated));
  if (topic == "MailboxSizeWarning") return std::type_index(typeid(MailboxSizeWarning));
  if (topic == "LogEvent") return std::type_index(typeid(LogEvent));
  return std::nullopt;
}
}  // namespace

val subscribe(int system, std::string topic, std::uint32_t ref, val handler) {
  return guarded([&]() -> double {
    auto type = topic_type(topic);
    if (!type) throw OptionsError("EventStream", "type", topic, "not a framework event class");
    EventStream& stream = SystemRegistry::instance().get(system).system->event_stream();
    if (ref != 0) return static_cast<double>(stream.subscribe(*type, ref_from_id(ref)));
    return static_cast<double>(
        stream.subscribe(*type, EventStream::Handler([handler, system](const Message& m) {
          handler(message_to_js(m, system));
        })));
  });
}

void unsubscribe(int system, double subscription) {
  if (SystemHandle* handle = SystemRegistry::instance().find(system)) {
    handle->system->event_stream().unsubscribe(
        static_cast<EventStream::SubscriptionId>(subscription));
  }
}

}  // namespace mailroom::wasm::api
