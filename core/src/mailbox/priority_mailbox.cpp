#include "mailroom/priority_mailbox.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>

#include "mailroom/errors.hpp"

namespace mailroom {

PriorityMailbox::PriorityMailbox(PriorityMailboxOptions options)
    : PriorityMailbox(options.resolve()) {}

PriorityMailbox::PriorityMailbox(PriorityMailboxOptions::Resolved settings)
    : priority_for_(std::move(settings.priority_for)),
      on_priority_error_(std::move(settings.on_priority_error)),
      capacity_(settings.capacity),
      overflow_(settings.overflow),
      dead_letter_drops_(settings.dead_letter_drops) {
  ledger_.observe(std::move(settings.on_drop));  // the caller's hook goes first
}

double PriorityMailbox::rank_of(const Envelope& envelope) const {
  // priority_for sees messages nobody wrote it for (PoisonPill, Kill): a throw
  // or NaN is an ordinary state, contained here rather than failing the
  // sender's tell. The message keeps its place, last among the ranked.
  double raw = 0;
  try {
    raw = priority_for_(envelope);
  } catch (...) {
    if (on_priority_error_) on_priority_error_(std::current_exception(), envelope);
    return kUnrankablePriority;
  }
  if (!std::isnan(raw)) return raw;  // ±infinity are ranks a caller may mean
  if (on_priority_error_) {
    on_priority_error_(std::make_exception_ptr(std::invalid_argument(
                           "priorityFor returned NaN, which cannot be ranked")),
                       envelope);
  }
  return kUnrankablePriority;
}

PriorityMailbox::Key PriorityMailbox::insert(double priority, Envelope envelope, bool droppable) {
  return insert_in(epoch_, priority, std::move(envelope), droppable);
}

PriorityMailbox::Key PriorityMailbox::insert_in(std::uint64_t epoch, double priority,
                                                Envelope envelope, bool droppable) {
  const Key key{epoch, priority, next_sequence_++};
  ordered_.insert(key, detail::PriorityStore::Slot{std::move(envelope), droppable});
  return key;
}

std::optional<std::pair<PriorityMailbox::Key, Envelope>>
PriorityMailbox::take_least_important_droppable() {
  return ordered_.take_last_droppable();
}

std::optional<DropLedger::Drop> PriorityMailbox::decide_overflow(double priority, Envelope& arrival,
                                                                 std::uint64_t epoch) {
  if (!full()) {
    insert_in(epoch, priority, std::move(arrival), true);
    return std::nullopt;
  }
  switch (*overflow_) {
    case OverflowPolicy::kDropLowestPriority: {
      // Insert first so the arrival competes on equal terms: if it ranks last
      // (ties included: it has the newest sequence) it is the one shed.
      const Key arrival_key = insert_in(epoch, priority, std::move(arrival), true);
      auto shed = take_least_important_droppable();  // found: the arrival is droppable
      if (!shed) return std::nullopt;
      ledger_.count();
      const DropReason reason = shed->first.sequence == arrival_key.sequence
                                    ? DropReason::kDropNew
                                    : DropReason::kDropHead;
      return DropLedger::Drop{reason, std::move(shed->second)};
    }
    case OverflowPolicy::kDropNew:
      ledger_.count();
      return DropLedger::Drop{DropReason::kDropNew, std::move(arrival)};
    case OverflowPolicy::kReject:
      // Not a drop: nothing counted. The owning cell adds its path.
      throw MailboxFullError("", *capacity_);
    case OverflowPolicy::kDropHead:
      break;  // refused by PriorityMailboxOptions::resolve()
  }
  throw std::logic_error("PriorityMailbox: policy without a branch");
}

void PriorityMailbox::do_enqueue(Envelope envelope) {
  const double priority = rank_of(envelope);  // user code: never under our lock
  std::optional<DropLedger::Drop> dropped;
  {
    std::lock_guard lock(mutex_);
    dropped = decide_overflow(priority, envelope, epoch_);
  }
  if (dropped) ledger_.notify(std::move(*dropped));
}

void PriorityMailbox::do_enqueue_signal(Envelope envelope) {
  envelope.signal = true;
  const double priority = rank_of(envelope);
  std::lock_guard lock(mutex_);
  insert(priority, std::move(envelope), false);
}

void PriorityMailbox::do_enqueue_control(Envelope envelope) {
  envelope.signal = true;
  // priority_for still sees it, as in the seed (its error is reported), but
  // the rank does not place it: the epoch does.
  static_cast<void>(rank_of(envelope));
  std::lock_guard lock(mutex_);
  // An odd epoch of its own: behind every message of the current (even) one,
  // unstashed ones included, ahead of everything sent after it.
  insert_in(epoch_ + 1, std::numeric_limits<double>::infinity(), std::move(envelope), false);
  epoch_ += 2;
}

std::size_t PriorityMailbox::size() const {
  std::lock_guard lock(mutex_);
  return ordered_.size();
}

MailboxDescription PriorityMailbox::describe() const {
  return {"priority", capacity_, overflow_, dead_letter_drops_};
}

std::optional<Envelope> PriorityMailbox::do_dequeue() {
  std::lock_guard lock(mutex_);
  return ordered_.pop_front();
}

std::vector<Envelope> PriorityMailbox::do_drain() {
  std::lock_guard lock(mutex_);
  return ordered_.drain();
}

void PriorityMailbox::do_prepend(std::vector<Envelope> envelopes) {
  if (envelopes.empty()) return;
  std::vector<double> ranks;
  ranks.reserve(envelopes.size());
  for (const Envelope& envelope : envelopes) ranks.push_back(rank_of(envelope));

  std::vector<DropLedger::Drop> dropped;
  {
    std::lock_guard lock(mutex_);
    // reject refuses the batch whole, before any insert, so the caller's
    // stash is still entirely its own.
    // Stashed death notifications bypass the capacity, so only the rest count.
    const std::size_t droppable = static_cast<std::size_t>(std::count_if(
        envelopes.begin(), envelopes.end(), [](const Envelope& e) { return !e.signal; }));
    if (capacity_ && *overflow_ == OverflowPolicy::kReject &&
        ordered_.size() + droppable > *capacity_) {
      throw MailboxFullError("", *capacity_);
    }
    // Unstashed messages were queued before any PoisonPill still pending.
    const std::uint64_t epoch =
        ordered_.empty() ? epoch_ : ordered_.front_epoch() & ~std::uint64_t{1};
    for (std::size_t i = 0; i < envelopes.size(); ++i) {
      if (envelopes[i].signal) {
        insert_in(epoch, ranks[i], std::move(envelopes[i]), false);
      } else if (auto drop = decide_overflow(ranks[i], envelopes[i], epoch)) {
        dropped.push_back(std::move(*drop));
      }
    }
  }
  ledger_.notify(std::move(dropped));
}

}  // namespace mailroom
