// How much of a dead letter the queue keeps: one axis, four stops.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class DeadLetterStore {
  kOff,         // "off": keeps nothing (the default)
  kMetrics,     // "metrics": a counter only, never a payload
  kMemory,      // "memory": a bounded ring, lost on restart
  kPersistent,  // "persistent": the ring plus an append-only journal stream
};

std::string_view to_string(DeadLetterStore store) noexcept;
std::optional<DeadLetterStore> dead_letter_store_from_string(std::string_view text) noexcept;

}  // namespace mailroom
