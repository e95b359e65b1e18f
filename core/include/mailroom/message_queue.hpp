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
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

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

  // ---- any thread ----
  // A user message. Bounded queues apply their overflow policy here; under
  // reject this throws MailboxFullError and nothing is counted as dropped.
  virtual void enqueue(Envelope envelope) = 0;
  // A death notification (Terminated): queued with the user messages but never
  // shed by a capacity, under every policy.
  virtual void enqueue_signal(Envelope envelope) = 0;
  // stop() and kill(): a PoisonPill or Kill. Never shed by a capacity and never
  // MailboxFullError, yet it still waits behind every user message queued
  // before it (drain, then stop) — in a priority queue whatever their rank.
  // A FIFO's signal path already means exactly that, hence the default.
  virtual void enqueue_control(Envelope envelope) { enqueue_signal(std::move(envelope)); }

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

  // ---- consumer only ----
  virtual std::optional<Envelope> dequeue() = 0;
  virtual std::vector<Envelope> drain() = 0;  // everything, in delivery order
  // Unstash: put envelopes back at the front, keeping their order. Bounded
  // queues bound this path too (see their docs); may throw MailboxFullError,
  // in which case nothing was inserted.
  virtual void prepend(std::vector<Envelope> envelopes) = 0;

  // ---- ownership: a queue belongs to exactly one actor ----
  // Returns false when another owner already holds it (a factory that returned
  // a shared instance); the runtime refuses such a queue with OptionsError.
  bool try_claim(const void* owner) noexcept {
    const void* expected = nullptr;
    return owner_.compare_exchange_strong(expected, owner) || expected == owner;
  }
  void release(const void* owner) noexcept {
    const void* expected = owner;
    owner_.compare_exchange_strong(expected, nullptr);
  }
  const void* owner() const noexcept { return owner_.load(std::memory_order_acquire); }

 private:
  std::atomic<const void*> owner_{nullptr};
};

}  // namespace mailroom
