// DeadLetterChanges: what changed in a dead-letter queue since a revision (the
// change feed). Every change to the held entries bumps the queue's revision;
// a reader remembers the revision it last saw and asks for what came after,
// instead of re-reading and diffing the whole list.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "mailroom/dead_letter_entry.hpp"

namespace mailroom {

// Why an entry left the queue.
enum class DeadLetterRemoval {
  kReplayed,  // "replayed": delivered by a replay
  kEvicted,   // "evicted": pushed out by max-entries
  kAgedOut,   // "aged-out": older than retention
  kPurged,    // "purged": removed on request (DeadLetterQueue::remove)
};

std::string_view to_string(DeadLetterRemoval reason) noexcept;
std::optional<DeadLetterRemoval> dead_letter_removal_from_string(std::string_view text) noexcept;

struct DeadLetterChanges {
  struct Removed {
    std::uint64_t id = 0;
    DeadLetterRemoval reason = DeadLetterRemoval::kEvicted;
  };

  std::uint64_t since = 0;     // the revision asked about
  std::uint64_t revision = 0;  // the queue's revision now: ask with this next time
  // False when `since` is older than the feed remembers (or the queue was
  // cleared after it): the lists below are empty and the reader re-lists.
  bool complete = true;
  // Only the latest state of each entry, in the order the changes happened.
  std::vector<DeadLetterEntry> captured;  // entries new since `since`
  std::vector<DeadLetterEntry> updated;   // held entries that changed (a replay came back)
  std::vector<Removed> removed;
};

}  // namespace mailroom
