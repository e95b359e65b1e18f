// PriorityMailbox: user messages come out in ascending priority (lower number
// first), FIFO among equals (the ActorMailbox still hands out system messages
// first).
//
// Backed by a PriorityStore keyed by (epoch, priority, arrival sequence): a
// FIFO ring per distinct priority for the usual few (O(1) in the backlog,
// O(log k) in the k distinct priorities), a ladder queue, amortised O(1) at
// both ends, when more than 64 distinct priorities are queued at once.
//
// Optionally bounded. When full:
//   drop-lowest-priority  insert the arrival, then shed the least important
//                         droppable message: reason drop-new when that is the
//                         arrival itself (by identity), else drop-head
//   drop-new              discard the arrival
//   reject                throw MailboxFullError; nothing is counted
// Signals (enqueue_signal) bypass the bound, take their priority position, and
// are never shed. prepend re-ranks each envelope through the same path.
//
// Thread ownership as in MessageQueue. priority_for runs on the producer's thread
// outside the lock, so it must be safe to call concurrently.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>

#include "mailroom/detail/drop_ledger.hpp"
#include "mailroom/detail/priority_store.hpp"
#include "mailroom/message_queue.hpp"
#include "mailroom/priority_mailbox_options.hpp"

namespace mailroom {

// The rank of a message priority_for could not rank (it threw or gave NaN):
// JS Number.MAX_SAFE_INTEGER — behind every ordinary rank, yet ahead of a
// deliberate +infinity ("absolutely last" stays distinguishable).
inline constexpr double kUnrankablePriority = 9007199254740991.0;

class PriorityMailbox final : public MessageQueue {
 public:
  // Throws OptionsError{"PriorityMailbox", field, value} for invalid options.
  explicit PriorityMailbox(PriorityMailboxOptions options);

  // ---- any thread ----
  std::size_t size() const override;
  MailboxDescription describe() const override;

  bool reports_drops() const noexcept override { return true; }
  void observe_drops(DropObserver observer) override { ledger_.observe(std::move(observer)); }
  std::uint64_t dropped_count() const noexcept override { return ledger_.dropped(); }
  bool dead_letter_drops() const noexcept override { return dead_letter_drops_; }

  const std::optional<std::size_t>& capacity() const noexcept { return capacity_; }
  const std::optional<OverflowPolicy>& overflow() const noexcept { return overflow_; }

  // The rank this mailbox gives an envelope: priority_for's answer, or
  // kUnrankablePriority (after telling on_priority_error) when it has none.
  double rank_of(const Envelope& envelope) const;

 protected:
  // ---- any thread ----
  void do_enqueue(Envelope envelope) override;  // may throw MailboxFullError (reject)
  void do_enqueue_signal(Envelope envelope) override;
  // A PoisonPill/Kill closes the current epoch: it goes behind every message
  // queued before it, whatever their rank, and everything sent after it
  // (whatever its rank) goes behind it. Never shed, never rejected.
  void do_enqueue_control(Envelope envelope) override;

  // ---- owning actor only ----
  std::optional<Envelope> do_dequeue() override;
  std::vector<Envelope> do_drain() override;  // in delivery order
  // Re-ranks each envelope as a new arrival (it rejoins its tier, behind the
  // equals already queued), so the bound applies and may drop. Under reject
  // it is all-or-nothing: throws MailboxFullError before inserting any.
  void do_prepend(std::vector<Envelope> envelopes) override;

 private:
  explicit PriorityMailbox(PriorityMailboxOptions::Resolved settings);

  using Key = detail::PriorityStore::Key;

  // The one overflow decision; inserts the arrival when it is admitted. Lock
  // held. Counts any drop; throws under reject.
  std::optional<DropLedger::Drop> decide_overflow(double priority, Envelope& arrival,
                                                  std::uint64_t epoch);
  Key insert(double priority, Envelope envelope, bool droppable);
  // Unstashed messages were queued before any pending PoisonPill: they rejoin
  // the oldest live epoch.
  Key insert_in(std::uint64_t epoch, double priority, Envelope envelope, bool droppable);
  std::optional<std::pair<Key, Envelope>> take_least_important_droppable();
  bool full() const noexcept { return capacity_ && ordered_.size() >= *capacity_; }

  const PriorityFunction priority_for_;
  const PriorityErrorObserver on_priority_error_;
  const std::optional<std::size_t> capacity_;
  const std::optional<OverflowPolicy> overflow_;
  const bool dead_letter_drops_;
  DropLedger ledger_;

  mutable detail::Mutex mutex_;  // no lock at all in a single-threaded build
  detail::PriorityStore ordered_;
  std::uint64_t next_sequence_ = 0;
  std::uint64_t epoch_ = 0;  // even; +2 for every enqueue_control
};

}  // namespace mailroom
