// UnboundedMailbox: the default user queue. FIFO, never drops; the heap is
// the only ceiling. Lock-free: any number of senders enqueue with one atomic
// exchange each, and the owning actor dequeues without ever blocking them.
// In a single-threaded build (wasm) the queue is a SegmentQueue instead
// (detail/fifo_queue.hpp): no node per message.
// (The size warning at 10,000 and each doubling is the actor cell's job: it sees
// size() after every enqueue.)
#pragma once

#include <atomic>
#include <cstddef>
#include <deque>
#include <optional>
#include <utility>

#include "mailroom/detail/fifo_queue.hpp"
#include "mailroom/message_queue.hpp"

namespace mailroom {

class UnboundedMailbox final : public MessageQueue {
 public:
  std::size_t size() const override;
  bool size_at_least(std::size_t n) const override;
  MailboxDescription describe() const override;
  bool enqueue_is_sequentially_consistent() const noexcept override { return true; }

 protected:
  void do_enqueue(Envelope envelope) override;
  void do_enqueue_signal(Envelope envelope) override;
  std::optional<Envelope> do_dequeue() override;
  std::vector<Envelope> do_drain() override;
  void do_prepend(std::vector<Envelope> envelopes) override;

 private:
  // The same queue without a virtual call or a by-value envelope: the owning
  // actor's ActorMailbox reaches the built-in queue this way (any other queue
  // through MessageQueue's do_* members). Private, as the do_* members are
  // protected: only the owner's mailbox mutates an owned queue. Inline, so a
  // sender's and a turn's envelope moves straight between the caller and the
  // queue's slot.
  friend class ActorMailbox;
  // Returns an upper bound on size() just after the push, counting every
  // push before it (the size warning's check, without reading the
  // producers' line again).
  std::uint64_t push(Envelope&& envelope) {
    const std::uint64_t user = user_.push(std::move(envelope));
    return user + front_size_.load(std::memory_order_acquire);
  }
  std::optional<Envelope> take() {
    if (front_.empty()) return user_.pop();
    return take_unstashed();
  }
  bool holds_at_least(std::size_t n) const {
    const std::size_t front = front_size_.load(std::memory_order_acquire);
    return front >= n || user_.size_at_least(n - front);
  }
  std::optional<Envelope> take_unstashed();

  detail::FifoQueue<Envelope, detail::EnvelopePacking> user_;
  // Unstashed envelopes, ahead of user_. Owner only; the count is atomic so
  // size() stays exact from any thread.
  std::deque<Envelope> front_;
  detail::Atomic<std::size_t> front_size_{0};
};

}  // namespace mailroom
