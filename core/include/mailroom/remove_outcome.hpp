// What DeadLetterQueue::remove (purge) answers for each id, each named so a
// bulk purge can say exactly what happened to every letter it was given.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class RemoveOutcome {
  kRemoved,       // "removed": the entry left the queue (journaled as a tombstone)
  kUnknownEntry,  // "unknown-entry": no such id (replayed, aged out, purged, never kept)
  kInFlight,      // "in-flight": a replay is delivering it right now; its outcome decides
};

std::string_view to_string(RemoveOutcome outcome) noexcept;
std::optional<RemoveOutcome> remove_outcome_from_string(std::string_view text) noexcept;

}  // namespace mailroom
