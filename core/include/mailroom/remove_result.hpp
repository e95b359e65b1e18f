// One id's answer from DeadLetterQueue::remove (purge).
#pragma once

#include <cstdint>

#include "mailroom/remove_outcome.hpp"

namespace mailroom {

struct RemoveResult {
  std::uint64_t id = 0;
  RemoveOutcome outcome = RemoveOutcome::kUnknownEntry;

  friend bool operator==(const RemoveResult&, const RemoveResult&) = default;
};

}  // namespace mailroom
