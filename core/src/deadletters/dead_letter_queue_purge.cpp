// DeadLetterQueue: the operator's edits of held entries, purge (remove) and
// quarantine release, each journaled so a restart agrees with what was done.
#include "change_log.hpp"
#include "dead_letter_record.hpp"
#include "entry_ring.hpp"
#include "mailroom/dead_letter_queue.hpp"

#include <unordered_set>

namespace mailroom {

using detail::DeadLetterRecord;
using detail::EntryRing;

namespace {
// A queue that keeps no entries knows none of the ids.
std::vector<RemoveResult> all_unknown(const std::vector<std::uint64_t>& ids) {
  std::vector<RemoveResult> out;
  out.reserve(ids.size());
  for (std::uint64_t id : ids) out.push_back({id, RemoveOutcome::kUnknownEntry});
  return out;
}
}  // namespace

std::vector<RemoveResult> DeadLetterQueue::remove(const std::vector<std::uint64_t>& ids) {
  if (!keeps_entries()) return all_unknown(ids);
  drain_pending();  // the tombstones follow the captured records
  std::vector<RemoveResult> out;
  out.reserve(ids.size());
  const std::int64_t now_ms = now();
  bool changed = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    expire_locked(now_ms);
    std::vector<std::uint64_t> purged;
    for (std::uint64_t id : ids) {
      const RemoveOutcome outcome = remove_check_locked(id);
      if (outcome != RemoveOutcome::kRemoved) {
        out.push_back({id, outcome});
        continue;
      }
      ring_->remove(id);
      purged.push_back(id);
      out.push_back({id, RemoveOutcome::kRemoved});
      if (persistent()) {
        DeadLetterRecord tombstone;
        tombstone.kind = DeadLetterRecord::Kind::kRemoved;
        tombstone.id = id;
        tombstone.purged = true;
        append_locked(tombstone.to_json());
      }
    }
    if (!purged.empty()) {
      changes_->note_removed(purged, DeadLetterRemoval::kPurged);
      if (persistent()) maybe_compact_locked();
      changed = true;
    }
  }
  if (changed) {
    flush();  // the tombstones are durable before the caller hears "removed"
    notify_changed();
  }
  return out;
}

RemoveOutcome DeadLetterQueue::remove_check_locked(std::uint64_t id) {
  EntryRing::State state;
  if (ring_->find(id, &state) == nullptr) return RemoveOutcome::kUnknownEntry;
  // A replay is delivering it: removing it now would race the delivery's
  // own outcome (a refused delivery puts it back).
  if (state != EntryRing::State::kLive) return RemoveOutcome::kInFlight;
  return RemoveOutcome::kRemoved;
}

std::vector<RemoveResult> DeadLetterQueue::preview_remove(const std::vector<std::uint64_t>& ids) {
  if (!keeps_entries()) return all_unknown(ids);
  std::vector<RemoveResult> out;
  out.reserve(ids.size());
  const std::int64_t now_ms = now();
  std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(now_ms);
  // What remove would have taken out already: the same id again finds nothing.
  std::unordered_set<std::uint64_t> taken;
  for (std::uint64_t id : ids) {
    RemoveOutcome outcome = remove_check_locked(id);
    if (outcome == RemoveOutcome::kRemoved && !taken.insert(id).second) {
      outcome = RemoveOutcome::kUnknownEntry;
    }
    out.push_back({id, outcome});
  }
  return out;
}

ReleaseOutcome DeadLetterQueue::release(std::uint64_t id) {
  if (!keeps_entries()) return ReleaseOutcome::kUnknownEntry;
  drain_pending();
  const std::int64_t now_ms = now();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    expire_locked(now_ms);
    EntryRing::State state;
    detail::StoredEntry* stored = ring_->find(id, &state);
    if (stored == nullptr || state != EntryRing::State::kLive) return ReleaseOutcome::kUnknownEntry;
    if (stored->entry.replay_count < settings_.max_replays) return ReleaseOutcome::kNotQuarantined;
    stored->entry.replay_count = 0;
    changes_->note(detail::ChangeLog::Kind::kUpdated, id);
    if (persistent()) {
      DeadLetterRecord released;
      released.kind = DeadLetterRecord::Kind::kReleased;
      released.id = id;
      append_locked(released.to_json());
      maybe_compact_locked();
    }
  }
  flush();  // durable before the caller hears "released"
  notify_changed();
  return ReleaseOutcome::kReleased;
}

}  // namespace mailroom
