// Every way a dead-letter replay can end, each named so nothing fails silently.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class ReplayOutcome {
  kReplayed,             // "replayed": delivered; the entry left the queue
  kUnknownEntry,         // "unknown-entry": no such id (replayed, aged out, never kept)
  kUnresolvedRecipient,  // "unresolved-recipient": no user actor at the path; entry stays
  kDegradedPayload,      // "degraded-payload": provenance only, nothing to send
  kQuarantined,          // "quarantined": already replayed max-replays times
  kRejected,             // "rejected": the destination mailbox refused it; entry stays
  // "control-message": a PoisonPill or Kill (a stop()/kill() that came after
  // its actor had stopped). Replaying it would stop or fail whatever actor
  // lives at the path now, so it is never delivered; the entry stays.
  kControlMessage,
};

std::string_view to_string(ReplayOutcome outcome) noexcept;
std::optional<ReplayOutcome> replay_outcome_from_string(std::string_view text) noexcept;

}  // namespace mailroom
