// What DeadLetterQueue::replay answers: the outcome and the path it concerns
// (where the letter went when replayed; the path that did not resolve, ...).
#pragma once

#include <string>

#include "mailroom/replay_outcome.hpp"

namespace mailroom {

struct ReplayResult {
  ReplayOutcome outcome = ReplayOutcome::kUnknownEntry;
  std::string recipient_path;  // "" for unknown-entry
  // unresolved-recipient for a redirect path that is malformed as written
  // (ActorPath::malformation: why), "" otherwise.
  std::string malformed;
};

}  // namespace mailroom
