// ActorMailbox: where an actor's messages wait (Akka's Mailbox). It owns the
// system queue, suspension and closing; the user queue is a MessageQueue of
// the actor's choosing (unbounded, bounded, priority, a JS subclass).
// System messages always come out first.
//
// Thread ownership (CAF's rule, stated per member):
//   any thread        enqueue*, size, system_size, has_*, suspended, closed,
//                     describe, dropped_count, observe_drops
//   owning actor only dequeue_*, drain_*, prepend_user, suspend, resume, close
//
// This is the actor's own mailbox: it calls its queue's implementation
// directly, with no ownership check on the way. Constructing one over a queue
// an actor owns is refused (IllegalStateError), and an actor refuses a queue
// another ActorMailbox still wraps. To use the whole member list on a mailbox
// no actor owns, use StandaloneMailbox (standalone_mailbox.hpp).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "mailroom/detail/fifo_queue.hpp"
#include "mailroom/message_queue.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {

class ActorMailbox final {
 public:
  // Where envelopes go once the mailbox is closed (the actor's dead letters).
  using Sink = std::function<void(Envelope)>;

  // Throws IllegalStateError when an actor owns `queue`.
  explicit ActorMailbox(std::shared_ptr<MessageQueue> queue);
  ~ActorMailbox();
  ActorMailbox(const ActorMailbox&) = delete;
  ActorMailbox& operator=(const ActorMailbox&) = delete;

  // ---- any thread ----
  // By rvalue reference: the envelope moves once, into the user queue's
  // parameter, on its way from tell to the queue's node.
  // A user message; may throw MailboxFullError (a rejecting queue).
  void enqueue(Envelope&& envelope);
  // A death notification: never shed by a capacity.
  void enqueue_signal(Envelope&& envelope);
  // stop()/kill(): never shed or refused, behind what was sent before it.
  void enqueue_control(Envelope&& envelope);
  // A framework signal (create, terminate, failure, watch, suspend, ...).
  void enqueue_system(Envelope&& envelope);
  // A user message, a signal, stop or kill into the built-in unbounded queue,
  // where all four are the same FIFO push and nothing is ever refused: false
  // (and nothing done) for any other queue or once closed. `size_bound`: an
  // upper bound on size() just after the push that counts every push before
  // it (so size_at_least need be asked only when it reaches a threshold).
  bool enqueue_unbounded(Envelope& envelope, std::uint64_t& size_bound) {
    if (unbounded_ == nullptr || closed()) return false;
    size_bound = unbounded_->push(std::move(envelope));
    return true;
  }

  std::size_t size() const { return queue_->size(); }  // pending user messages
  bool size_at_least(std::size_t n) const {
    return unbounded_ != nullptr ? unbounded_->holds_at_least(n) : queue_->size_at_least(n);
  }
  std::size_t system_size() const { return system_.size(); }
  bool has_user_messages() const { return size() > 0; }
  bool has_system_messages() const { return system_size() > 0; }
  // What a turn could take now: system messages always, user messages only
  // while not suspended (as dequeue_user).
  bool has_messages() const {
    return has_system_messages() || (!suspended() && has_user_messages());
  }
  MailboxDescription describe() const { return queue_->describe(); }
  bool enqueue_is_sequentially_consistent() const noexcept {
    return queue_->enqueue_is_sequentially_consistent();
  }

  bool reports_drops() const noexcept { return queue_->reports_drops(); }
  void observe_drops(DropObserver observer) { queue_->observe_drops(std::move(observer)); }
  std::uint64_t dropped_count() const noexcept { return queue_->dropped_count(); }
  bool dead_letter_drops() const noexcept { return queue_->dead_letter_drops(); }

  // A suspended mailbox still accepts messages; it hands out only system
  // messages until resume().
  void suspend() noexcept { suspended_.store(true, std::memory_order_release); }
  void resume() noexcept { suspended_.store(false, std::memory_order_release); }
  bool suspended() const noexcept { return suspended_.load(std::memory_order_acquire); }

  // ---- owning actor only ----
  std::optional<Envelope> dequeue_system() { return system_.pop(); }
  // Nothing while suspended: a suspended mailbox holds its user messages.
  std::optional<Envelope> dequeue_user() {
    if (suspended()) return std::nullopt;
    return unbounded_ != nullptr ? unbounded_->take() : queue_->do_dequeue();
  }
  std::vector<Envelope> drain_user() { return queue_->do_drain(); }  // suspended or not
  std::vector<Envelope> drain_system();
  // Unstash; bounded queues bound it (may throw MailboxFullError, then
  // nothing was inserted).
  void prepend_user(std::vector<Envelope> envelopes) { queue_->do_prepend(std::move(envelopes)); }

  // Akka's cleanUp: from now on every user message, signal and stop/kill goes
  // straight to `sink`, and what the user queue still holds is handed to it.
  // Idempotent: a later call keeps the first sink and hands over stragglers
  // (a sender that checked before the close). System messages stay queued for
  // the actor to answer (a late watch still gets its Terminated).
  void close(Sink sink);
  bool closed() const noexcept { return closed_.load(std::memory_order_acquire); }

  MessageQueue& queue() noexcept { return *queue_; }
  const std::shared_ptr<MessageQueue>& queue_ptr() const noexcept { return queue_; }

 private:
  friend class StandaloneMailbox;
  struct Uncounted {};
  // StandaloneMailbox's: not counted as a wrapper, since it checks ownership
  // on every call itself.
  ActorMailbox(std::shared_ptr<MessageQueue> queue, Uncounted);

  // True (and the envelope handed to the sink) once closed.
  bool diverted(Envelope& envelope);

  const std::shared_ptr<MessageQueue> queue_;
  // queue_ when it is the built-in UnboundedMailbox (a final class): the
  // per-message calls reach it inline. Null for any other queue, which is
  // reached through MessageQueue's do_* members (the extension point) as before.
  UnboundedMailbox* const unbounded_;
  detail::FifoQueue<Envelope, detail::EnvelopePacking> system_;
  detail::Atomic<bool> suspended_{false};
  detail::Atomic<bool> closed_{false};
  Sink sink_;             // written once, before closed_ is published
  bool counted_ = false;  // in queue_->wrappers()
};

}  // namespace mailroom
