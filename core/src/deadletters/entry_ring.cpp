#include "entry_ring.hpp"

#include <algorithm>
#include <vector>

namespace mailroom::detail {
namespace {
// Holes are compacted once they outnumber entries by this much.
constexpr std::size_t kRebuildSlack = 64;
}  // namespace

void EntryRing::push(StoredEntry stored) {
  const std::uint64_t id = stored.entry.id;
  const std::uint64_t order = front_order_ + slots_.size();
  stored.entry.position = next_position_;
  slots_.push_back(Slot{std::move(stored), State::kLive, {}});
  // A failure leaves the ring as it was.
  Slot& s = slots_.back();
  try {
    s.indexed = index_.add(s.stored.entry.recipient_path, order);
  } catch (...) {
    slots_.pop_back();
    throw;
  }
  try {
    order_of_.set(id, order);
  } catch (...) {
    index_.remove(s.indexed, order);
    slots_.pop_back();
    throw;
  }
  ++live_;
  ++next_position_;
}

EntryRing::Slot* EntryRing::slot(std::uint64_t id) {
  const std::uint64_t* order = order_of_.find(id);
  return order == nullptr ? nullptr : &slots_[*order - front_order_];
}

StoredEntry* EntryRing::find(std::uint64_t id, State* state) {
  Slot* s = slot(id);
  if (s == nullptr) return nullptr;
  if (state != nullptr) *state = s->state;
  return &s->stored;
}

void EntryRing::set_in_flight(std::uint64_t id) {
  if (Slot* s = slot(id); s != nullptr && s->state == State::kLive) {
    s->state = State::kInFlight;
    --live_;
  }
}

void EntryRing::set_live(std::uint64_t id) {
  if (Slot* s = slot(id); s != nullptr && s->state == State::kInFlight) {
    s->state = State::kLive;
    ++live_;
  }
}

void EntryRing::remove(std::uint64_t id) {
  const std::uint64_t* found = order_of_.find(id);
  if (found == nullptr) return;
  const std::uint64_t order = *found;
  kill(slots_[order - front_order_], order);
  trim_front();
  maybe_rebuild();
}

void EntryRing::kill(Slot& s, std::uint64_t order) {
  if (s.state == State::kDead) return;
  if (s.state == State::kLive) --live_;
  index_.remove(s.indexed, order);
  const std::uint64_t id = s.stored.entry.id;
  order_of_.erase(id);
  s.state = State::kDead;
  // Releases the message now, not when trimmed; the position stays for the
  // binary search of below().
  const std::uint64_t position = s.stored.entry.position;
  s.stored = StoredEntry{};
  s.stored.entry.position = position;
  s.stored.entry.id = id;
}

void EntryRing::clear() {
  slots_.clear();
  order_of_.clear();
  index_.clear();
  live_ = 0;
}

std::size_t EntryRing::age_out(std::int64_t cutoff_ms, std::vector<std::uint64_t>* ids) {
  std::size_t removed = 0;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.state != State::kLive) continue;
    if (s.stored.entry.timestamp_ms >= cutoff_ms) break;
    if (ids != nullptr) ids->push_back(s.stored.entry.id);
    kill(s, front_order_ + i);
    ++removed;
  }
  if (removed > 0) trim_front();
  return removed;
}

std::size_t EntryRing::evict_to(std::size_t max, std::vector<std::uint64_t>* ids) {
  std::size_t removed = 0;
  for (std::size_t i = 0; live_ > max && i < slots_.size(); ++i) {
    if (slots_[i].state != State::kLive) continue;
    if (ids != nullptr) ids->push_back(slots_[i].stored.entry.id);
    kill(slots_[i], front_order_ + i);
    ++removed;
  }
  if (removed > 0) trim_front();
  return removed;
}

std::uint64_t EntryRing::min_sequence() const noexcept {
  std::uint64_t min = std::numeric_limits<std::uint64_t>::max();
  for (const Slot& s : slots_) {
    if (s.state != State::kDead && s.stored.sequence != 0) min = std::min(min, s.stored.sequence);
  }
  return min;
}

void EntryRing::trim_front() {
  while (!slots_.empty() && slots_.front().state == State::kDead) {
    slots_.pop_front();
    ++front_order_;
  }
}

void EntryRing::maybe_rebuild() {
  // Holes in the middle (replayed or returned entries) are squeezed out once
  // they dominate, renumbering order keys; amortised O(1) per removal.
  if (slots_.size() <= 2 * order_of_.size() + kRebuildSlack) return;
  std::vector<std::uint64_t> renumbered(slots_.size());  // by old position; dead: unused
  std::deque<Slot> kept;
  for (std::size_t i = 0; i < slots_.size(); ++i) {
    Slot& s = slots_[i];
    if (s.state == State::kDead) continue;
    renumbered[i] = front_order_ + kept.size();
    order_of_.set(s.stored.entry.id, renumbered[i]);
    kept.push_back(std::move(s));
  }
  slots_ = std::move(kept);
  index_.renumber([&](std::uint64_t order) { return renumbered[order - front_order_]; });
}

}  // namespace mailroom::detail
