// Journal: an append-only log of records per stream (persistence id), with
// sequence numbers. The dead-letter queue's persistent store writes to one;
// natively a FileJournal over a folder, in Node and in the browser the same
// FileJournal over a storage the JS side provides, in tests an InMemoryJournal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mailroom {

struct JournalRecord {
  std::uint64_t sequence = 0;  // increasing per stream (1, 2, 3, ...; gaps after a repair)
  std::string payload;         // opaque bytes (the dead-letter queue writes JSON)
};

// One stretch of bytes a read skipped: where, how long, how many records
// were lost in it (known from the sequence numbers around it) and why.
struct JournalDamage {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t records = 0;
  std::string reason;
};

// What reading a stream found: every intact record (also those after damage:
// the reader resynchronises at the next valid frame) and every damaged stretch.
struct JournalReadResult {
  std::vector<JournalRecord> records;
  bool damaged = false;
  std::uint64_t damaged_at_offset = 0;  // byte offset of the first damaged byte
  std::string damage;                   // human-readable summary, empty when intact
  std::vector<JournalDamage> damages;   // every damaged stretch, in file order
  std::uint64_t skipped_bytes = 0;      // sum of damages[].length
  std::uint64_t skipped_records = 0;    // sum of damages[].records
  std::string kept_aside;               // where the damaged bytes are kept (FileJournal)
};

class Journal {
 public:
  virtual ~Journal() = default;
  // Read the whole stream (oldest first). Damage is reported, not thrown;
  // intact records after it are returned too, and nothing intact is deleted.
  virtual JournalReadResult read(const std::string& stream) = 0;
  // Append one record; returns its sequence number (highest so far + 1). May
  // buffer; flush() makes everything appended so far durable.
  virtual std::uint64_t append(const std::string& stream, std::string payload) = 0;
  virtual void flush() = 0;
  // Drop every record with sequence <= up_to (prefix compaction). Sequence
  // numbers of later records do not change.
  virtual void delete_up_to(const std::string& stream, std::uint64_t up_to) = 0;
  // One writer per stream: become its writer, or throw JournalLockedError
  // when another journal (another system, another process) writes it.
  virtual void acquire(const std::string& /*stream*/) {}
  // Stop writing a stream (flushes it) so another writer may take it.
  virtual void release(const std::string& /*stream*/) {}
  // Every stream this journal holds, this writer's and other writers' (a
  // database shared by several processes), sorted; read() any of them
  // without becoming its writer. Empty when the journal cannot list.
  virtual std::vector<std::string> streams() { return {}; }
  // Records appended but not yet stored (a database that went away): the
  // figure behind the mailroom_journal_backlog metric. nullopt for journals
  // that never queue (no metric is written for them).
  virtual std::optional<std::uint64_t> backlog() const { return std::nullopt; }
};

}  // namespace mailroom
