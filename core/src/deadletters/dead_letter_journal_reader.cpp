#include "mailroom/dead_letter_journal_reader.hpp"

#include <algorithm>
#include <exception>
#include <unordered_map>

#include "dead_letter_record.hpp"

namespace mailroom {

using detail::DeadLetterRecord;

namespace {

JournaledDeadLetter to_letter(DeadLetterRecord&& record, std::uint64_t sequence) {
  JournaledDeadLetter letter;
  letter.id = record.id;
  letter.sequence = sequence;
  letter.timestamp_ms = record.timestamp_ms;
  letter.recipient_path = std::move(record.recipient_path);
  letter.sender_path = std::move(record.sender_path);
  letter.replay_count = record.replay_count;
  letter.cause = record.cause;
  letter.drop_reason = record.drop_reason;
  letter.class_name = std::move(record.degraded_class);
  letter.tag = std::move(record.tag);
  if (letter.tag) letter.value = std::move(record.value);
  letter.degraded_reason = std::move(record.degraded_reason);
  return letter;
}

}  // namespace

DeadLetterJournalContents read_dead_letter_journal(Journal& journal,
                                                   const std::string& persistence_id) {
  return read_dead_letter_journal(journal.read(persistence_id));
}

DeadLetterJournalContents read_dead_letter_journal(JournalReadResult read) {
  DeadLetterJournalContents out;
  out.damaged = read.damaged;
  out.damaged_at_offset = read.damaged_at_offset;
  out.damage = std::move(read.damage);
  out.records = read.records.size();
  if (!read.records.empty()) {
    out.first_sequence = read.records.front().sequence;
    out.last_sequence = read.records.back().sequence;
  }

  std::unordered_map<std::uint64_t, JournaledDeadLetter> live;
  for (JournalRecord& journal_record : read.records) {
    DeadLetterRecord record;
    try {
      record = DeadLetterRecord::from_json(journal_record.payload);
    } catch (const std::exception& e) {
      out.unreadable.push_back("record " + std::to_string(journal_record.sequence) + ": " +
                               e.what());
      continue;
    }
    switch (record.kind) {
      case DeadLetterRecord::Kind::kCaptured:
        ++out.captured_records;
        live.insert_or_assign(record.id, to_letter(std::move(record), journal_record.sequence));
        break;
      case DeadLetterRecord::Kind::kRemoved:
        ++out.removed_records;
        live.erase(record.id);
        break;
      case DeadLetterRecord::Kind::kCleared:
        ++out.cleared_records;
        live.clear();
        break;
      case DeadLetterRecord::Kind::kReleased:
        ++out.released_records;
        if (auto it = live.find(record.id); it != live.end()) it->second.replay_count = 0;
        break;
      case DeadLetterRecord::Kind::kUnknown:
        ++out.unknown_records;
        break;
    }
  }
  out.letters.reserve(live.size());
  for (auto& [id, letter] : live) out.letters.push_back(std::move(letter));
  std::sort(out.letters.begin(), out.letters.end(),
            [](const auto& a, const auto& b) { return a.sequence < b.sequence; });
  return out;
}

}  // namespace mailroom
