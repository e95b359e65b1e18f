// StandaloneMailbox: the seed's whole mailbox member list (system queue,
// suspension, user queue) on a mailbox no actor owns — what the JS Mailbox
// classes are a view of, and how C++ code drives a queue by hand.
//
// Once an actor owns the user queue (it was handed to spawn), every call that
// would change the mailbox is refused with IllegalStateError naming the owner
// and the method: a message enqueued from outside would never be scheduled, a
// suspend would not reach the actor's own mailbox, a dequeue would steal the
// actor's message. Reads (size, dropped_count, observe_drops, ...) keep
// working. The framework's own calls into user mailbox code are let through
// (MessageQueue::FrameworkCall).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "mailroom/mailbox.hpp"

namespace mailroom {

class StandaloneMailbox final {
 public:
  explicit StandaloneMailbox(std::shared_ptr<MessageQueue> queue)
      : mailbox_(std::move(queue), ActorMailbox::Uncounted{}) {}

  // ---- refused once an actor owns the queue ----
  void enqueue(Envelope envelope) {
    check("enqueue");
    mailbox_.enqueue(std::move(envelope));
  }
  void enqueue_signal(Envelope envelope) {
    check("enqueue_signal");
    mailbox_.enqueue_signal(std::move(envelope));
  }
  void enqueue_control(Envelope envelope) {
    check("enqueue_control");
    mailbox_.enqueue_control(std::move(envelope));
  }
  void enqueue_system(Envelope envelope) {
    check("enqueue_system");
    mailbox_.enqueue_system(std::move(envelope));
  }
  std::optional<Envelope> dequeue_user() {
    check("dequeue_user");
    return mailbox_.dequeue_user();
  }
  std::optional<Envelope> dequeue_system() {
    check("dequeue_system");
    return mailbox_.dequeue_system();
  }
  std::vector<Envelope> drain_user() {
    check("drain_user");
    return mailbox_.drain_user();
  }
  std::vector<Envelope> drain_system() {
    check("drain_system");
    return mailbox_.drain_system();
  }
  void prepend_user(std::vector<Envelope> envelopes) {
    check("prepend_user");
    mailbox_.prepend_user(std::move(envelopes));
  }
  void suspend() {
    check("suspend");
    mailbox_.suspend();
  }
  void resume() {
    check("resume");
    mailbox_.resume();
  }

  // ---- reads, owned or not ----
  std::size_t size() const { return mailbox_.size(); }
  std::size_t system_size() const { return mailbox_.system_size(); }
  bool has_user_messages() const { return mailbox_.has_user_messages(); }
  bool has_system_messages() const { return mailbox_.has_system_messages(); }
  bool has_messages() const { return mailbox_.has_messages(); }
  bool suspended() const noexcept { return mailbox_.suspended(); }
  MailboxDescription describe() const { return mailbox_.describe(); }
  bool reports_drops() const noexcept { return mailbox_.reports_drops(); }
  // Additive, and allowed on an owned mailbox (a metric wired in late).
  void observe_drops(DropObserver observer) { mailbox_.observe_drops(std::move(observer)); }
  std::uint64_t dropped_count() const noexcept { return mailbox_.dropped_count(); }
  bool dead_letter_drops() const noexcept { return mailbox_.dead_letter_drops(); }

  // The user queue, to hand to an actor (ActorOptions::with_mailbox).
  const std::shared_ptr<MessageQueue>& queue_ptr() const noexcept { return mailbox_.queue_ptr(); }
  // True while an actor owns the queue (the refusals above apply).
  bool owned() const noexcept { return mailbox_.queue_ptr()->owner() != nullptr; }

 private:
  void check(std::string_view method) const { mailbox_.queue_ptr()->refuse_if_owned(method); }

  ActorMailbox mailbox_;
};

}  // namespace mailroom
