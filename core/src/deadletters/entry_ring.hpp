// EntryRing: the dead-letter queue's entries in capture order, kept in a
// deque so that a newest-first scan of 100,000 entries stays contiguous, and
// indexed by recipient path so that a subtree is listed without a scan. An
// entry is live, in flight (taken out for a replay that is being delivered;
// invisible but keeping its place in case the delivery is refused) or dead
// (a hole, trimmed at the front and compacted away when holes dominate).
// Not thread-safe: the queue calls it under its own mutex.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "id_index.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/dead_letter_entry.hpp"
#include "mailroom/dead_letter_filter.hpp"
#include "recipient_index.hpp"

namespace mailroom::detail {

struct StoredEntry {
  DeadLetterEntry entry;
  std::uint64_t sequence = 0;  // journal sequence of its latest captured record (0: none)
};

class EntryRing {
 public:
  enum class State : std::uint8_t { kLive, kInFlight, kDead };

  // As the newest, live, at the next position (entry.position, never reused).
  void push(StoredEntry stored);
  // The entry with this id (live or in flight), or null.
  StoredEntry* find(std::uint64_t id, State* state = nullptr);
  void set_in_flight(std::uint64_t id);  // live -> in flight
  void set_live(std::uint64_t id);       // in flight -> live, at its old place
  void remove(std::uint64_t id);         // -> dead
  void clear();

  // Removes live entries with timestamp_ms < cutoff, oldest first, stopping at
  // the first younger one. Returns how many; their ids go to `ids` if given.
  std::size_t age_out(std::int64_t cutoff_ms, std::vector<std::uint64_t>* ids = nullptr);
  // Removes the oldest live entries until at most max are live. Returns how many.
  std::size_t evict_to(std::size_t max, std::vector<std::uint64_t>* ids = nullptr);

  std::size_t live() const noexcept { return live_; }
  // Smallest journal sequence any entry not dead still needs (max() if none).
  std::uint64_t min_sequence() const noexcept;

  // Calls f(const StoredEntry&) for live entries, newest first, while it returns true.
  template <class F>
  void for_each_newest_first(F&& f) const {
    for (auto it = slots_.rbegin(); it != slots_.rend(); ++it) {
      if (it->state == State::kLive && !f(it->stored)) return;
    }
  }

  // The same for live entries at positions below `before` (the continuation
  // of a paged read): the start is found by binary search on the positions,
  // which ascend in capture order whatever the entries' times.
  template <class F>
  void for_each_newest_first_before(std::uint64_t before, F&& f) const {
    for (std::size_t i = below(before); i-- > 0;) {
      const Slot& s = slots_[i];
      if (s.state == State::kLive && !f(s.stored)) return;
    }
  }

  // Live entries whose recipient_path is in wanted's subtree
  // (ActorPath::in_subtree), newest first, below position *before if given.
  // Visits only those paths' entries, unless the subtree holds so many paths
  // that merging them would cost more than the scan (a broad filter such as
  // "/" over many one-letter actors).
  template <class F>
  void for_each_in_subtree_newest_first(
      std::string_view wanted, F&& f,
      const std::optional<std::uint64_t>& before = std::nullopt) const {
    const std::size_t end = before ? below(*before) : slots_.size();
    std::optional<RecipientIndex::NewestFirst> keys = index_.newest_first(
        wanted, std::max(kMinMergedPaths, live_ / kEntriesPerMergedPath), front_order_ + end);
    if (!keys) {
      for (std::size_t i = end; i-- > 0;) {
        const Slot& s = slots_[i];
        if (s.state != State::kLive ||
            !ActorPath::in_subtree(s.stored.entry.recipient_path, wanted)) {
          continue;
        }
        if (!f(s.stored)) return;
      }
      return;
    }
    for (std::uint64_t key; keys->next(key);) {
      const Slot& s = slots_[key - front_order_];
      if (s.state == State::kLive && !f(s.stored)) return;
    }
  }

 private:
  struct Slot {
    StoredEntry stored;
    State state = State::kLive;
    RecipientIndex::Handle indexed;  // its path in index_ (not dead)
  };
  // A subtree is merged from the index when it holds at most
  // max(kMinMergedPaths, live / kEntriesPerMergedPath) paths.
  static constexpr std::size_t kMinMergedPaths = 64;
  static constexpr std::size_t kEntriesPerMergedPath = 64;

  // The number of slots from the front at positions below p (dead slots keep
  // their position for this binary search).
  std::size_t below(std::uint64_t p) const {
    auto it = std::partition_point(slots_.begin(), slots_.end(),
                                   [&](const Slot& s) { return s.stored.entry.position < p; });
    return static_cast<std::size_t>(it - slots_.begin());
  }

  Slot* slot(std::uint64_t id);
  void kill(Slot& slot, std::uint64_t order);
  void trim_front();
  void maybe_rebuild();

  std::deque<Slot> slots_;
  std::uint64_t front_order_ = 0;  // order key of slots_[0]
  IdIndex order_of_;               // id -> order key (not dead)
  RecipientIndex index_;           // path -> order keys (not dead)
  std::size_t live_ = 0;
  std::uint64_t next_position_ = 1;  // kept by clear(): a position is never reused
};

}  // namespace mailroom::detail
