// What DeadLetterQueue::release (lift a quarantine) answers, each named.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class ReleaseOutcome {
  kReleased,        // "released": replay_count is 0 again, so max-replays applies afresh
  kUnknownEntry,    // "unknown-entry": no such id held (or a replay is delivering it)
  kNotQuarantined,  // "not-quarantined": below max-replays already; nothing changed
};

std::string_view to_string(ReleaseOutcome outcome) noexcept;
std::optional<ReleaseOutcome> release_outcome_from_string(std::string_view text) noexcept;

}  // namespace mailroom
