// Journal: an append-only log of records per stream (persistence id), with
// sequence numbers. The dead-letter queue's persistent store writes to one;
// natively a FileJournal, in the browser one backed by IndexedDB (via the
// Emscripten file system), in tests an InMemoryJournal.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mailroom {

struct JournalRecord {
  std::uint64_t sequence = 0;  // 1, 2, 3, ... per stream
  std::string payload;         // opaque bytes (the dead-letter queue writes JSON)
};

// What reading a stream found: every valid record before any damage, and a
// description of the damage (torn tail, bad checksum) if there was some.
struct JournalReadResult {
  std::vector<JournalRecord> records;
  bool damaged = false;
  std::uint64_t damaged_at_offset = 0;  // byte offset of the first invalid byte
  std::string damage;                   // human-readable, empty when intact
};

class Journal {
 public:
  virtual ~Journal() = default;
  // Read the whole stream (oldest first). A damaged tail is reported, not
  // thrown; the next append continues cleanly after the valid prefix (the
  // damaged bytes are cut off on the first append after a read).
  virtual JournalReadResult read(const std::string& stream) = 0;
  // Append one record; returns its sequence number (highest so far + 1). May
  // buffer; flush() makes everything appended so far durable.
  virtual std::uint64_t append(const std::string& stream, std::string payload) = 0;
  virtual void flush() = 0;
  // Drop every record with sequence <= up_to (prefix compaction). Sequence
  // numbers of later records do not change.
  virtual void delete_up_to(const std::string& stream, std::uint64_t up_to) = 0;
};

}  // namespace mailroom
