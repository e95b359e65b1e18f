// MessageQueue: an actor's user queue, and only that (Akka's MessageQueue).
// The system queue, suspension and closing belong to the ActorMailbox that
// wraps it (mailbox.hpp), so UnboundedMailbox, BoundedMailbox,
// PriorityMailbox and a JS subclass implement ordering and overflow alone.
//
// Thread ownership (CAF's rule, stated per member):
//   any thread     enqueue, enqueue_signal, enqueue_control, size,
//                  size_at_least, describe, dropped_count, observe_drops
//   consumer only  dequeue, drain, prepend
// Implementations must make the "any thread" members safe against each other
// and against the consumer (many producers, one consumer).
//
// Ownership: the public enqueue*/dequeue/drain/prepend are the API of a queue
// no actor owns. Once an actor owns it (try_claim), they throw
// IllegalStateError naming the owner and the method: a message slipped in
// from outside would never be scheduled, a dequeue would steal the actor's
// message. The framework calls the protected do_* members through
// ActorMailbox instead, so the check costs the actor's path nothing.
// Subclasses implement the do_* members.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/overflow_policy.hpp"

namespace mailroom {

// What inspection shows about a mailbox.
struct MailboxDescription {
  std::string kind;                        // "unbounded", "bounded", "priority", or a custom name
  std::optional<std::size_t> capacity;     // none when unbounded
  std::optional<OverflowPolicy> overflow;  // none when unbounded
  bool dead_letter_drops = false;
};

class MessageQueue {
 public:
  virtual ~MessageQueue() = default;
  MessageQueue() = default;
  MessageQueue(const MessageQueue&) = delete;
  MessageQueue& operator=(const MessageQueue&) = delete;

  // ---- any thread (refused once an actor owns the queue) ----
  // A user message. Bounded queues apply their overflow policy here; under
  // reject this throws MailboxFullError and nothing is counted as dropped.
  void enqueue(Envelope envelope) {
    refuse_if_owned("enqueue");
    do_enqueue(std::move(envelope));
  }
  // A death notification (Terminated): queued with the user messages but never
  // shed by a capacity, under every policy.
  void enqueue_signal(Envelope envelope) {
    refuse_if_owned("enqueue_signal");
    do_enqueue_signal(std::move(envelope));
  }
  // stop() and kill(): a PoisonPill or Kill. Never shed by a capacity and never
  // MailboxFullError, yet it still waits behind every user message queued
  // before it (drain, then stop) — in a priority queue whatever their rank.
  void enqueue_control(Envelope envelope) {
    refuse_if_owned("enqueue_control");
    do_enqueue_control(std::move(envelope));
  }

  virtual std::size_t size() const = 0;  // pending user messages
  // A cheaper question than size() >= n for a sender to ask after every
  // enqueue (the size warning); lock-free queues answer it without touching
  // the consumer's cache line.
  virtual bool size_at_least(std::size_t n) const { return size() >= n; }

  virtual MailboxDescription describe() const = 0;

  // True when every enqueue_* ends its publication with a sequentially
  // consistent read-modify-write (a lock-free queue's counter). The runtime
  // then needs no extra fence between queuing a message and checking whether
  // the actor is scheduled. A queue built on a mutex keeps the default.
  virtual bool enqueue_is_sequentially_consistent() const noexcept { return false; }

  // ---- drop reporting (optional; a queue that never drops keeps the defaults) ----
  virtual bool reports_drops() const noexcept { return false; }
  // Additive: every observer sees every drop.
  virtual void observe_drops(DropObserver /*observer*/) {}
  virtual std::uint64_t dropped_count() const noexcept { return 0; }
  // Fixed at construction: only then does a drop become a dead letter.
  virtual bool dead_letter_drops() const noexcept { return false; }

  // ---- consumer only (refused once an actor owns the queue) ----
  std::optional<Envelope> dequeue() {
    refuse_if_owned("dequeue");
    return do_dequeue();
  }
  // Everything, in delivery order.
  std::vector<Envelope> drain() {
    refuse_if_owned("drain");
    return do_drain();
  }
  // Unstash: put envelopes back at the front, keeping their order. Bounded
  // queues bound this path too (see their docs); may throw MailboxFullError,
  // in which case nothing was inserted.
  void prepend(std::vector<Envelope> envelopes) {
    refuse_if_owned("prepend");
    do_prepend(std::move(envelopes));
  }

  // ---- ownership: a queue belongs to exactly one actor ----
  // Returns false when another owner already holds it (a factory that returned
  // a shared instance); the runtime refuses such a queue with OptionsError.
  // `owner_path` names the owner in the errors of refused calls. Virtual for
  // a queue that delegates to another (the JS subclass adapter), which claims
  // that one too.
  virtual bool try_claim(const void* owner, std::string owner_path = {});
  virtual void release(const void* owner) noexcept;
  const void* owner() const noexcept { return owner_.load(std::memory_order_acquire); }
  // The owner's path as given to try_claim ("" when unowned or not named).
  std::string owner_path() const;

  // Throws IllegalStateError naming the owner and `method` when an actor owns
  // this queue, unless the framework is serving it on this thread (see
  // FrameworkCall); the public entries above call it.
  void refuse_if_owned(std::string_view method) const {
    if (owner() != nullptr) refuse_unless_serving(method);
  }

  // While one lives, this thread may use `queue`'s public API although an
  // actor owns it: the framework is calling a user's mailbox code (a JS
  // subclass's enqueue override) that calls back into it, as the seed's
  // SheddingMailbox calls super.enqueue. Nests.
  class FrameworkCall {
   public:
    explicit FrameworkCall(const MessageQueue& queue) noexcept;
    ~FrameworkCall();
    FrameworkCall(const FrameworkCall&) = delete;
    FrameworkCall& operator=(const FrameworkCall&) = delete;

   private:
    const MessageQueue* previous_;
  };

  // ActorMailbox instances wrapping this queue (see ActorMailbox's
  // constructor): an actor refuses a queue another ActorMailbox still wraps.
  std::size_t wrappers() const noexcept { return wrappers_.load(std::memory_order_acquire); }

 protected:
  // The implementation, called by the public members above (unowned) and by
  // the owning actor's ActorMailbox (owned).
  virtual void do_enqueue(Envelope envelope) = 0;
  virtual void do_enqueue_signal(Envelope envelope) = 0;
  // A FIFO's signal path already means exactly what stop()/kill() need, hence
  // the default.
  virtual void do_enqueue_control(Envelope envelope) { do_enqueue_signal(std::move(envelope)); }
  virtual std::optional<Envelope> do_dequeue() = 0;
  virtual std::vector<Envelope> do_drain() = 0;
  virtual void do_prepend(std::vector<Envelope> envelopes) = 0;

 private:
  friend class ActorMailbox;
  void refuse_unless_serving(std::string_view method) const;

  std::atomic<const void*> owner_{nullptr};
  std::atomic<std::size_t> wrappers_{0};
  mutable detail::Mutex owner_path_mutex_;  // cold: claims and refusals only
  std::string owner_path_;
};

}  // namespace mailroom
