// BoundedMailbox: a FIFO with a fixed bound on queued user messages and an
// overflow policy for the message that does not fit.
//
//   drop-head  evict the oldest droppable queued message, admit the arrival
//   drop-new   discard the arrival
//   reject     throw MailboxFullError at the call site; nothing is counted
//
// Signals (enqueue_signal: death notifications) bypass the bound under every
// policy and are never evicted. prepend (unstash) is bounded too, shedding
// at the far end from where it inserts — see prepend.
//
// Thread ownership as in MessageQueue. One mutex guards the queue; drop
// observers run after it is released, on the thread that caused the drop.
#pragma once

#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "mailroom/bounded_mailbox_options.hpp"
#include "mailroom/detail/drop_ledger.hpp"
#include "mailroom/message_queue.hpp"

namespace mailroom {

class BoundedMailbox final : public MessageQueue {
 public:
  // Throws OptionsError{"BoundedMailbox", field, value} for invalid options.
  explicit BoundedMailbox(BoundedMailboxOptions options);

  // ---- any thread ----
  std::size_t size() const override;
  MailboxDescription describe() const override;

  bool reports_drops() const noexcept override { return true; }
  void observe_drops(DropObserver observer) override { ledger_.observe(std::move(observer)); }
  std::uint64_t dropped_count() const noexcept override { return ledger_.dropped(); }
  bool dead_letter_drops() const noexcept override { return dead_letter_drops_; }

  std::size_t capacity() const noexcept { return capacity_; }
  OverflowPolicy overflow() const noexcept { return overflow_; }

 protected:
  // ---- any thread ----
  void do_enqueue(Envelope envelope) override;  // may throw MailboxFullError (reject)
  void do_enqueue_signal(Envelope envelope) override;

  // ---- owning actor only ----
  std::optional<Envelope> do_dequeue() override;
  std::vector<Envelope> do_drain() override;
  // Puts the batch back at the head in order, within the bound:
  //   drop-head  evicts the newest queued messages to make room (drop-head);
  //              once nothing queued may go, the batch's tail is discarded (drop-new)
  //   drop-new   discards the part of the batch that does not fit (its tail)
  //   reject     all-or-nothing: throws MailboxFullError before inserting any
  //              (the vector is taken by value: keep a copy to restore a stash)
  void do_prepend(std::vector<Envelope> envelopes) override;

 private:
  explicit BoundedMailbox(BoundedMailboxOptions::Resolved settings);

  struct Slot {
    Envelope envelope;
    bool droppable;  // false for signals: never evicted
  };
  // Where an arrival lands, which fixes the end drop-head evicts from.
  enum class Arrival { kTail, kHead };
  struct Decision {
    bool admit;                               // insert the arrival
    std::optional<DropLedger::Drop> dropped;  // already counted; notify after unlock
  };

  // The one overflow decision. Lock held. `pending` arrivals are admitted but
  // not inserted yet (a prepend batch). Counts any drop; throws under reject.
  Decision decide_overflow(Envelope& arrival, Arrival where, std::size_t pending);
  std::optional<Envelope> take_oldest_droppable();
  std::optional<Envelope> take_newest_droppable();

  const std::size_t capacity_;
  const OverflowPolicy overflow_;
  const bool dead_letter_drops_;
  DropLedger ledger_;

  mutable detail::Mutex mutex_;  // no lock at all in a single-threaded build
  std::deque<Slot> user_;
};

}  // namespace mailroom
