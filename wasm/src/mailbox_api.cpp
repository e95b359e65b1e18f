// Standalone mailboxes from JS: Mailbox, BoundedMailbox, PriorityMailbox and
// the adapter for JS subclasses. Validation is the core's (OptionsError).
#include <cmath>

#include "api.hpp"
#include "conversions.hpp"
#include "error_records.hpp"
#include "js_hooks.hpp"
#include "js_mailbox_adapter.hpp"
#include "mailbox_table.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/unbounded_mailbox.hpp"
#include "options_from_js.hpp"

namespace mailroom::wasm::api {

namespace {
val envelopes_to_js(const std::vector<Envelope>& envelopes) {
  val out = val::array();
  for (const Envelope& e : envelopes) out.call<void>("push", envelope_to_js(e, 0));
  return out;
}
}  // namespace

val mailbox_create(std::string kind, val settings) {
  return guarded([&] {
    std::shared_ptr<MessageQueue> mailbox;
    if (kind == "bounded") {
      mailbox = std::make_shared<BoundedMailbox>(bounded_options_from_js(settings));
    } else if (kind == "priority") {
      mailbox = std::make_shared<PriorityMailbox>(priority_options_from_js(settings));
    } else {
      mailbox = std::make_shared<UnboundedMailbox>();
    }
    val out = val::object();
    out.set("id", MailboxTable::instance().add(std::move(mailbox)));
    return out;
  });
}

void mailbox_release(std::uint32_t id) {
  MailboxTable::instance().release(id);
}
bool mailbox_alive(std::uint32_t id) {
  return MailboxTable::instance().alive(id);
}

std::uint32_t mailbox_adapter_create(val instance, std::uint32_t base) {
  const StandaloneMailbox& own = MailboxTable::instance().get(base);
  auto adapter =
      std::make_shared<JsMessageQueue>(std::move(instance), own.describe(), own.queue_ptr());
  return MailboxTable::instance().add_adapter(std::move(adapter));
}

val mailbox_enqueue(std::uint32_t id, int which, val message, std::uint32_t sender, int special,
                    double replay) {
  return guarded([&] {
    StandaloneMailbox& mailbox = MailboxTable::instance().get(id);
    Envelope envelope;
    envelope.message = message_from_js(std::move(message), special, 0);
    envelope.sender = ref_from_id(sender);
    envelope.replay_entry = static_cast<std::uint64_t>(replay);
    const auto queue = static_cast<MailboxQueue>(which);
    if (queue == MailboxQueue::kSystem) {
      mailbox.enqueue_system(std::move(envelope));
    } else if (queue == MailboxQueue::kSignal) {
      // A death notification stays one through dequeue, stash and prependUser
      // (JS sees `undroppable`), whichever mailbox keeps it.
      envelope.signal = true;
      mailbox.enqueue_signal(std::move(envelope));
    } else {
      mailbox.enqueue(std::move(envelope));
    }
  });
}

// Refused (IllegalStateError, as an error record) once an actor owns the mailbox.
val mailbox_dequeue(std::uint32_t id, int which) {
  return guarded([&] {
    StandaloneMailbox& mailbox = MailboxTable::instance().get(id);
    auto envelope = static_cast<MailboxQueue>(which) == MailboxQueue::kSystem
                        ? mailbox.dequeue_system()
                        : mailbox.dequeue_user();
    return envelope ? envelope_to_js(*envelope, 0) : val::null();
  });
}

val mailbox_drain(std::uint32_t id, int which) {
  return guarded([&] {
    StandaloneMailbox& mailbox = MailboxTable::instance().get(id);
    return envelopes_to_js(static_cast<MailboxQueue>(which) == MailboxQueue::kSystem
                               ? mailbox.drain_system()
                               : mailbox.drain_user());
  });
}

val mailbox_prepend(std::uint32_t id, val records) {
  return guarded([&] {
    std::vector<Envelope> envelopes;
    const int n = records["length"].as<int>();
    for (int i = 0; i < n; ++i) envelopes.push_back(envelope_from_js(records[i]));
    MailboxTable::instance().get(id).prepend_user(std::move(envelopes));
  });
}

double mailbox_size(std::uint32_t id) {
  return static_cast<double>(MailboxTable::instance().get(id).size());
}
double mailbox_system_size(std::uint32_t id) {
  return static_cast<double>(MailboxTable::instance().get(id).system_size());
}
bool mailbox_suspended(std::uint32_t id) {
  return MailboxTable::instance().get(id).suspended();
}
val mailbox_suspend(std::uint32_t id, bool suspend) {
  return guarded([&] {
    StandaloneMailbox& mailbox = MailboxTable::instance().get(id);
    if (suspend) {
      mailbox.suspend();
    } else {
      mailbox.resume();
    }
  });
}
double mailbox_dropped_count(std::uint32_t id) {
  return static_cast<double>(MailboxTable::instance().get(id).dropped_count());
}
bool mailbox_dead_letter_drops(std::uint32_t id) {
  return MailboxTable::instance().get(id).dead_letter_drops();
}
void mailbox_observe_drops(std::uint32_t id, val observer) {
  MailboxTable::instance().get(id).observe_drops(js_drop_observer(std::move(observer)));
}
void drop_notify(std::uint32_t observer_key, std::string reason, val envelope) {
  JsMessageQueue::notify_drop(observer_key, reason, envelope);
}

}  // namespace mailroom::wasm::api
