// DropLedger: the accounting every dropping mailbox shares — the counter and
// the additive observer list — written once so no mailbox can grow a drop path
// that forgets one of them.
//
// The protocol for a drop, in this order:
//   1. under the mailbox lock: take the envelope out of the queue (or keep the
//      arrival) into a Drop, and call count();
//   2. after releasing the lock: notify(std::move(drop)) runs every observer
//      and then destroys the envelope — exactly once, when the Drop dies.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/envelope.hpp"

namespace mailroom {

class DropLedger {
 public:
  // One discarded envelope and why; owns it until the observers have seen it.
  struct Drop {
    DropReason reason;
    Envelope envelope;
  };

  // Any thread. Additive: every observer sees every later drop, in
  // registration order.
  void observe(DropObserver observer);

  // Any thread; cheap (one relaxed atomic add). Call once per envelope
  // actually removed, never for an intention.
  void count(std::uint64_t drops = 1) noexcept {
    count_.fetch_add(drops, std::memory_order_relaxed);
  }
  std::uint64_t dropped() const noexcept { return count_.load(std::memory_order_relaxed); }

  // Call without any mailbox lock held (observers may call back into the
  // mailbox). Every observer sees every drop even if one throws; the first
  // exception is rethrown afterwards. The envelopes are destroyed on return.
  void notify(Drop drop) const;
  void notify(std::vector<Drop> drops) const;

 private:
  using Observers = std::vector<DropObserver>;
  std::shared_ptr<const Observers> snapshot() const;

  detail::Atomic<std::uint64_t> count_{0};
  mutable detail::Mutex observers_mutex_;
  // Copy-on-write so notify() iterates without holding any lock.
  std::shared_ptr<const Observers> observers_ = std::make_shared<const Observers>();
};

}  // namespace mailroom
