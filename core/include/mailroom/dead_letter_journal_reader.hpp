// Reads a dead-letter queue's journal stream offline: without a running
// system, without codecs, and without writing a byte (no repair, no
// compaction), so an operator's tool can inspect a journal a live system owns.
// The fold is the queue's own at restore: the latest "captured" record per id
// wins, "removed" and "cleared" tombstones delete, "released" zeroes the count. Retention and
// max-entries are not applied: this is what the journal holds, not what a restore keeps.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/journal.hpp"

namespace mailroom {

struct JournaledDeadLetter {
  std::uint64_t id = 0;
  std::uint64_t sequence = 0;  // journal record holding this state of the letter
  std::int64_t timestamp_ms = 0;
  std::string recipient_path;
  std::optional<std::string> sender_path;
  std::uint32_t replay_count = 0;
  DeadLetterCause cause = DeadLetterCause::kUnknown;  // why it died (older records: unknown)
  std::optional<DropReason> drop_reason;              // the policy that shed it (cause dropped)
  std::string class_name;          // the payload's type name when it was captured
  std::optional<std::string> tag;  // set: the payload is tagged JSON (tag + value)
  nlohmann::json value;            // the payload as journaled (null when degraded)
  std::string degraded_reason;     // set when the payload could not be journaled
  bool degraded() const noexcept { return !tag.has_value(); }
};

struct DeadLetterJournalContents {
  std::vector<JournaledDeadLetter> letters;  // oldest first (journal order)
  std::size_t records = 0;                   // valid journal records read
  std::size_t captured_records = 0;
  std::size_t removed_records = 0;   // tombstones: a letter was replayed or purged
  std::size_t released_records = 0;  // quarantines lifted (replay count back to 0)
  std::size_t cleared_records = 0;   // tombstones: the queue was cleared
  std::size_t unknown_records = 0;   // kinds from a newer version (skipped)
  std::uint64_t first_sequence = 0;  // 0 when there are no records
  std::uint64_t last_sequence = 0;
  // Damage, reported and never repaired: a damaged journal tail (the valid
  // prefix is still read) and every record that did not parse.
  bool damaged = false;
  std::uint64_t damaged_at_offset = 0;
  std::string damage;
  std::vector<std::string> unreadable;  // "record <seq>: <why>"
};

// Reads `persistence_id` (e.g. DeadLetterQueueSettings::default_persistence_id("shop"))
// from `journal`. Never throws for damage; errors of the journal itself
// (an unreadable file) propagate from Journal::read.
DeadLetterJournalContents read_dead_letter_journal(Journal& journal,
                                                   const std::string& persistence_id);
// The same fold over records already read (e.g. Journal::read_letters).
DeadLetterJournalContents read_dead_letter_journal(JournalReadResult read);

}  // namespace mailroom
