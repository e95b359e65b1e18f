// String forms of the dead-letter enums; the only place these strings live in C++.
#include "mailroom/dead_letter_changes.hpp"
#include "mailroom/dead_letter_store.hpp"
#include "mailroom/release_outcome.hpp"
#include "mailroom/remove_outcome.hpp"
#include "mailroom/replay_outcome.hpp"

namespace mailroom {

std::string_view to_string(DeadLetterStore store) noexcept {
  switch (store) {
    case DeadLetterStore::kOff:
      return "off";
    case DeadLetterStore::kMetrics:
      return "metrics";
    case DeadLetterStore::kMemory:
      return "memory";
    case DeadLetterStore::kPersistent:
      return "persistent";
  }
  return "unknown";
}

std::optional<DeadLetterStore> dead_letter_store_from_string(std::string_view text) noexcept {
  if (text == "off") return DeadLetterStore::kOff;
  if (text == "metrics") return DeadLetterStore::kMetrics;
  if (text == "memory") return DeadLetterStore::kMemory;
  if (text == "persistent") return DeadLetterStore::kPersistent;
  return std::nullopt;
}

std::string_view to_string(ReplayOutcome outcome) noexcept {
  switch (outcome) {
    case ReplayOutcome::kReplayed:
      return "replayed";
    case ReplayOutcome::kUnknownEntry:
      return "unknown-entry";
    case ReplayOutcome::kUnresolvedRecipient:
      return "unresolved-recipient";
    case ReplayOutcome::kDegradedPayload:
      return "degraded-payload";
    case ReplayOutcome::kQuarantined:
      return "quarantined";
    case ReplayOutcome::kRejected:
      return "rejected";
    case ReplayOutcome::kControlMessage:
      return "control-message";
  }
  return "unknown";
}

std::optional<ReplayOutcome> replay_outcome_from_string(std::string_view text) noexcept {
  if (text == "replayed") return ReplayOutcome::kReplayed;
  if (text == "unknown-entry") return ReplayOutcome::kUnknownEntry;
  if (text == "unresolved-recipient") return ReplayOutcome::kUnresolvedRecipient;
  if (text == "degraded-payload") return ReplayOutcome::kDegradedPayload;
  if (text == "quarantined") return ReplayOutcome::kQuarantined;
  if (text == "rejected") return ReplayOutcome::kRejected;
  if (text == "control-message") return ReplayOutcome::kControlMessage;
  return std::nullopt;
}

std::string_view to_string(DeadLetterRemoval reason) noexcept {
  switch (reason) {
    case DeadLetterRemoval::kReplayed:
      return "replayed";
    case DeadLetterRemoval::kEvicted:
      return "evicted";
    case DeadLetterRemoval::kAgedOut:
      return "aged-out";
    case DeadLetterRemoval::kPurged:
      return "purged";
  }
  return "unknown";
}

std::optional<DeadLetterRemoval> dead_letter_removal_from_string(std::string_view text) noexcept {
  if (text == "replayed") return DeadLetterRemoval::kReplayed;
  if (text == "evicted") return DeadLetterRemoval::kEvicted;
  if (text == "aged-out") return DeadLetterRemoval::kAgedOut;
  if (text == "purged") return DeadLetterRemoval::kPurged;
  return std::nullopt;
}

std::string_view to_string(RemoveOutcome outcome) noexcept {
  switch (outcome) {
    case RemoveOutcome::kRemoved:
      return "removed";
    case RemoveOutcome::kUnknownEntry:
      return "unknown-entry";
    case RemoveOutcome::kInFlight:
      return "in-flight";
  }
  return "unknown";
}

std::optional<RemoveOutcome> remove_outcome_from_string(std::string_view text) noexcept {
  if (text == "removed") return RemoveOutcome::kRemoved;
  if (text == "unknown-entry") return RemoveOutcome::kUnknownEntry;
  if (text == "in-flight") return RemoveOutcome::kInFlight;
  return std::nullopt;
}

std::string_view to_string(ReleaseOutcome outcome) noexcept {
  switch (outcome) {
    case ReleaseOutcome::kReleased:
      return "released";
    case ReleaseOutcome::kUnknownEntry:
      return "unknown-entry";
    case ReleaseOutcome::kNotQuarantined:
      return "not-quarantined";
  }
  return "unknown";
}

std::optional<ReleaseOutcome> release_outcome_from_string(std::string_view text) noexcept {
  if (text == "released") return ReleaseOutcome::kReleased;
  if (text == "unknown-entry") return ReleaseOutcome::kUnknownEntry;
  if (text == "not-quarantined") return ReleaseOutcome::kNotQuarantined;
  return std::nullopt;
}

}  // namespace mailroom
