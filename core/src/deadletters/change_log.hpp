// ChangeLog: the dead-letter queue's recent changes by revision, bounded, so
// DeadLetterQueue::changes_since answers without a scan of the ring. Readers
// further behind than the log remembers are told to re-list. Not thread-safe:
// the queue calls it under its own mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "mailroom/dead_letter_changes.hpp"

namespace mailroom::detail {

class ChangeLog {
 public:
  enum class Kind : std::uint8_t { kCaptured, kUpdated, kRemoved };
  struct Change {
    std::uint64_t revision = 0;
    std::uint64_t id = 0;
    Kind kind = Kind::kCaptured;
    DeadLetterRemoval reason = DeadLetterRemoval::kEvicted;  // kRemoved only
  };

  explicit ChangeLog(std::size_t capacity) : capacity_(capacity) {}

  void note(Kind kind, std::uint64_t id, DeadLetterRemoval reason = DeadLetterRemoval::kEvicted);
  void note_removed(const std::vector<std::uint64_t>& ids, DeadLetterRemoval reason);
  // Forgets everything: readers from before must re-list (the queue was cleared).
  void reset();

  std::uint64_t revision() const noexcept { return revision_; }
  // The changes after `since`, oldest first. False when they are no longer
  // all known (`since` predates the log's floor).
  bool since(std::uint64_t since, std::vector<Change>& out) const;

 private:
  std::size_t capacity_;
  std::deque<Change> changes_;
  std::uint64_t revision_ = 0;
  std::uint64_t floor_ = 0;  // changes at or before this revision are forgotten
};

}  // namespace mailroom::detail
