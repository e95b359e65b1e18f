// DeadLetterQueue's change feed: revisions, changes_since and the listeners
// that are told when something changed.
#include <algorithm>
#include <unordered_map>

#include "change_log.hpp"
#include "entry_ring.hpp"
#include "mailroom/dead_letter_queue.hpp"

namespace mailroom {

using detail::ChangeLog;
using detail::EntryRing;

std::uint64_t DeadLetterQueue::revision() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return changes_->revision();
}

DeadLetterChanges DeadLetterQueue::changes_since(std::uint64_t since) {
  DeadLetterChanges out;
  out.since = since;
  const std::int64_t now_ms = now();
  std::lock_guard<std::mutex> lock(mutex_);
  if (keeps_entries()) expire_locked(now_ms);
  out.revision = changes_->revision();
  std::vector<ChangeLog::Change> log;
  if (!changes_->since(since, log)) {
    out.complete = false;
    return out;
  }
  // Only each entry's latest change counts; "captured" if it is new since
  // `since` at all, so a reader that never saw it inserts it.
  std::unordered_map<std::uint64_t, std::size_t> latest;
  std::unordered_map<std::uint64_t, bool> is_new;
  for (std::size_t i = 0; i < log.size(); ++i) {
    latest[log[i].id] = i;
    if (log[i].kind == ChangeLog::Kind::kCaptured) is_new[log[i].id] = true;
  }
  for (std::size_t i = 0; i < log.size(); ++i) {
    const ChangeLog::Change& change = log[i];
    if (latest[change.id] != i) continue;
    if (change.kind == ChangeLog::Kind::kRemoved) {
      out.removed.push_back({change.id, change.reason});
      continue;
    }
    EntryRing::State state;
    const detail::StoredEntry* stored = ring_->find(change.id, &state);
    // In flight (a replay is being delivered): its outcome is a later change.
    if (stored == nullptr || state != EntryRing::State::kLive) continue;
    (is_new.count(change.id) != 0 ? out.captured : out.updated).push_back(view(stored->entry));
  }
  return out;
}

std::uint64_t DeadLetterQueue::add_change_listener(ChangeListener listener) {
  std::lock_guard<std::mutex> lock(listeners_mutex_);
  const std::uint64_t id = next_listener_id_++;
  listeners_.emplace_back(id, std::make_shared<ChangeListener>(std::move(listener)));
  has_listeners_.store(true, std::memory_order_release);
  return id;
}

void DeadLetterQueue::remove_change_listener(std::uint64_t id) {
  std::lock_guard<std::mutex> lock(listeners_mutex_);
  listeners_.erase(std::remove_if(listeners_.begin(), listeners_.end(),
                                  [id](const auto& item) { return item.first == id; }),
                   listeners_.end());
  has_listeners_.store(!listeners_.empty(), std::memory_order_release);
}

void DeadLetterQueue::notify_changed() const noexcept {
  if (!has_listeners_.load(std::memory_order_acquire)) return;
  try {
    std::uint64_t revision = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      revision = changes_->revision();
    }
    std::vector<std::shared_ptr<ChangeListener>> copy;
    {
      std::lock_guard<std::mutex> lock(listeners_mutex_);
      for (const auto& item : listeners_) copy.push_back(item.second);
    }
    for (const auto& listener : copy) {
      try {
        (*listener)(revision);
      } catch (...) {
        damage("a dead-letter change listener threw; ignored");
      }
    }
  } catch (...) {
  }
}

}  // namespace mailroom
