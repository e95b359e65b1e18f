// Mailbox: where an actor's messages wait. Two queues — system and user — and
// system messages always come out first.
//
// Thread ownership (CAF's rule, stated per member):
//   any thread        enqueue, enqueue_signal, enqueue_control, enqueue_system, size, system_size,
//                     has_*, suspended, describe, dropped_count, observe_drops
//   owning actor only dequeue_*, drain_*, prepend_user, suspend, resume
// Implementations must make the "any thread" members safe against each other
// and against the owner (many producers, one consumer).
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

class Mailbox {
 public:
  virtual ~Mailbox() = default;
  Mailbox() = default;
  Mailbox(const Mailbox&) = delete;
  Mailbox& operator=(const Mailbox&) = delete;

  // ---- any thread ----
  // A user message. Bounded mailboxes apply their overflow policy here; under
  // reject this throws MailboxFullError and nothing is counted as dropped.
  virtual void enqueue(Envelope envelope) = 0;
  // A death notification (Terminated): queued with the user messages but never
  // shed by a capacity, under every policy.
  virtual void enqueue_signal(Envelope envelope) = 0;
  // stop() and kill(): a PoisonPill or Kill. Never shed by a capacity and never
  // MailboxFullError, yet it still waits behind every user message queued
  // before it (drain, then stop) — in a priority mailbox whatever their rank.
  // A FIFO's signal path already means exactly that, hence the default.
  virtual void enqueue_control(Envelope envelope) { enqueue_signal(std::move(envelope)); }
  // A framework signal (create, terminate, failure, watch, suspend, ...).
  virtual void enqueue_system(Envelope envelope) = 0;

  virtual std::size_t size() const = 0;         // pending user messages
  virtual std::size_t system_size() const = 0;  // pending system messages
  // A cheaper question than size() >= n for a sender to ask after every
  // enqueue (the size warning); lock-free mailboxes answer it without touching
  // the consumer's cache line.
  virtual bool size_at_least(std::size_t n) const { return size() >= n; }
  bool has_user_messages() const { return size() > 0; }
  bool has_system_messages() const { return system_size() > 0; }
  bool has_messages() const { return has_user_messages() || has_system_messages(); }

  virtual MailboxDescription describe() const = 0;

  // True when every enqueue_* ends its publication with a sequentially
  // consistent read-modify-write (a lock-free queue's counter). The runtime
  // then needs no extra fence between queuing a message and checking whether
  // the actor is scheduled. A mailbox built on a mutex keeps the default.
  virtual bool enqueue_is_sequentially_consistent() const noexcept { return false; }

  // ---- drop reporting (optional; a mailbox that never drops keeps the defaults) ----
  virtual bool reports_drops() const noexcept { return false; }
  // Additive: every observer sees every drop.
  virtual void observe_drops(DropObserver /*observer*/) {}
  virtual std::uint64_t dropped_count() const noexcept { return 0; }
  // Fixed at construction: only then does a drop become a dead letter.
  virtual bool dead_letter_drops() const noexcept { return false; }

  // ---- owning actor only ----
  virtual std::optional<Envelope> dequeue_system() = 0;
  virtual std::optional<Envelope> dequeue_user() = 0;
  virtual std::vector<Envelope> drain_user() = 0;
  virtual std::vector<Envelope> drain_system() = 0;
  // Unstash: put envelopes back at the front, keeping their order. Bounded
  // mailboxes bound this path too (see their docs); may throw MailboxFullError,
  // in which case nothing was inserted.
  virtual void prepend_user(std::vector<Envelope> envelopes) = 0;

  // A suspended mailbox still accepts messages; the dispatcher only processes
  // system messages until resume().
  void suspend() noexcept { suspended_.store(true, std::memory_order_release); }
  void resume() noexcept { suspended_.store(false, std::memory_order_release); }
  bool suspended() const noexcept { return suspended_.load(std::memory_order_acquire); }

  // ---- ownership: a mailbox belongs to exactly one actor ----
  // Returns false when another owner already holds it (a factory that returned
  // a shared instance); the runtime refuses such a mailbox with OptionsError.
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
  std::atomic<bool> suspended_{false};
  std::atomic<const void*> owner_{nullptr};
};

}  // namespace mailroom
