#include "mailroom/bounded_mailbox.hpp"

#include <iterator>
#include <stdexcept>
#include <utility>

#include "mailroom/errors.hpp"

namespace mailroom {

BoundedMailbox::BoundedMailbox(BoundedMailboxOptions options) : BoundedMailbox(options.resolve()) {}

BoundedMailbox::BoundedMailbox(BoundedMailboxOptions::Resolved settings)
    : capacity_(settings.capacity),
      overflow_(settings.overflow),
      dead_letter_drops_(settings.dead_letter_drops) {
  // The caller's hook is simply the first observer: counter, then it, then
  // whatever the runtime registers.
  ledger_.observe(std::move(settings.on_drop));
}

BoundedMailbox::Decision BoundedMailbox::decide_overflow(Envelope& arrival, Arrival where,
                                                         std::size_t pending) {
  if (user_.size() + pending < capacity_) return {true, std::nullopt};
  switch (overflow_) {
    case OverflowPolicy::kDropHead: {
      auto evicted = where == Arrival::kTail ? take_oldest_droppable() : take_newest_droppable();
      if (evicted) {
        ledger_.count();
        return {true, DropLedger::Drop{DropReason::kDropHead, std::move(*evicted)}};
      }
      // Nothing queued may go (only signals). A single arrival is admitted —
      // overshooting by one beats blinding a watcher — but a replayed batch
      // would overshoot by a whole stash, so its overflow is discarded.
      if (where == Arrival::kTail) return {true, std::nullopt};
      ledger_.count();
      return {false, DropLedger::Drop{DropReason::kDropNew, std::move(arrival)}};
    }
    case OverflowPolicy::kDropNew:
      ledger_.count();
      return {false, DropLedger::Drop{DropReason::kDropNew, std::move(arrival)}};
    case OverflowPolicy::kReject:
      // Not a drop: nothing counted. The owning cell adds its path.
      throw MailboxFullError("", capacity_);
    case OverflowPolicy::kDropLowestPriority:
      break;  // refused by BoundedMailboxOptions::resolve()
  }
  throw std::logic_error("BoundedMailbox: policy without a branch");
}

std::optional<Envelope> BoundedMailbox::take_oldest_droppable() {
  for (auto it = user_.begin(); it != user_.end(); ++it) {
    if (!it->droppable) continue;
    Envelope evicted = std::move(it->envelope);
    user_.erase(it);
    return evicted;
  }
  return std::nullopt;
}

std::optional<Envelope> BoundedMailbox::take_newest_droppable() {
  for (auto it = user_.rbegin(); it != user_.rend(); ++it) {
    if (!it->droppable) continue;
    Envelope evicted = std::move(it->envelope);
    user_.erase(std::next(it).base());
    return evicted;
  }
  return std::nullopt;
}

void BoundedMailbox::do_enqueue(Envelope envelope) {
  std::optional<DropLedger::Drop> dropped;
  {
    std::lock_guard lock(mutex_);
    Decision decision = decide_overflow(envelope, Arrival::kTail, 0);
    if (decision.admit) user_.push_back(Slot{std::move(envelope), true});
    dropped = std::move(decision.dropped);
  }
  if (dropped) ledger_.notify(std::move(*dropped));
}

void BoundedMailbox::do_enqueue_signal(Envelope envelope) {
  envelope.signal = true;
  std::lock_guard lock(mutex_);
  user_.push_back(Slot{std::move(envelope), false});
}

std::size_t BoundedMailbox::size() const {
  std::lock_guard lock(mutex_);
  return user_.size();
}

MailboxDescription BoundedMailbox::describe() const {
  return {"bounded", capacity_, overflow_, dead_letter_drops_};
}

std::optional<Envelope> BoundedMailbox::do_dequeue() {
  std::lock_guard lock(mutex_);
  if (user_.empty()) return std::nullopt;
  Envelope front = std::move(user_.front().envelope);
  user_.pop_front();
  return front;
}

std::vector<Envelope> BoundedMailbox::do_drain() {
  std::lock_guard lock(mutex_);
  std::vector<Envelope> out;
  out.reserve(user_.size());
  for (Slot& slot : user_) out.push_back(std::move(slot.envelope));
  user_.clear();
  return out;
}

void BoundedMailbox::do_prepend(std::vector<Envelope> envelopes) {
  if (envelopes.empty()) return;
  std::vector<DropLedger::Drop> dropped;
  {
    std::lock_guard lock(mutex_);
    // Decide the whole batch before touching the queue's head, so a reject
    // half-way leaves the mailbox exactly as it was (reject never evicts).
    std::vector<Slot> admitted;
    admitted.reserve(envelopes.size());
    for (Envelope& envelope : envelopes) {
      // A stashed death notification is admitted past the bound, as on arrival.
      if (envelope.signal) {
        admitted.push_back(Slot{std::move(envelope), false});
        continue;
      }
      Decision decision = decide_overflow(envelope, Arrival::kHead, admitted.size());
      if (decision.admit) admitted.push_back(Slot{std::move(envelope), true});
      if (decision.dropped) dropped.push_back(std::move(*decision.dropped));
    }
    user_.insert(user_.begin(), std::make_move_iterator(admitted.begin()),
                 std::make_move_iterator(admitted.end()));
  }
  ledger_.notify(std::move(dropped));
}

}  // namespace mailroom
