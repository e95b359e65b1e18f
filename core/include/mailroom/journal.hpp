// Journal: an append-only log of records per stream (persistence id), with
// sequence numbers. The dead-letter queue's persistent store writes to one;
// natively a FileJournal over a folder, in Node and in the browser the same
// FileJournal over a storage the JS side provides, in tests an InMemoryJournal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
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

// What a read of dead-letter records may leave out: "captured" records (the
// dead-letter queue's, JSON kind "captured") whose recipient is outside
// recipient_root (a local path, on a name boundary) or whose time is outside
// [since_ms, until_ms]. Every other record is kept, so folding the narrowed
// read is folding the stream, narrowed: a letter's recipient and time change
// only when it returns from a replay, after its "removed" tombstone. A
// journal may return more than asked (the caller filters again), never less.
struct JournalLetterFilter {
  std::optional<std::string> recipient_root;
  std::optional<std::int64_t> since_ms;
  std::optional<std::int64_t> until_ms;
  bool empty() const noexcept { return !recipient_root && !since_ms && !until_ms; }
};

// One live dead letter of a page (Journal::read_live_letters): its live
// "captured" record, and whether a later "released" record lifted its
// quarantine (the fold then counts its replays as 0).
struct JournalLiveLetter {
  JournalRecord captured;
  bool released = false;
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
  // flush(), then done("") once storage confirmed it durable (inline for a
  // storage that syncs on the spot, later for one that commits later), or
  // done(why) when storage failed afterwards. Throws as flush() does.
  virtual void flush_then(std::function<void(std::string error)> done) {
    flush();
    done({});
  }
  // How soon after a change the dead-letter queue makes it durable, unless
  // its sync-within setting says otherwise (see JournalStorage).
  virtual std::int64_t default_sync_within_ms() const { return 50; }
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
  // read(), narrowed where the journal can (the database journals filter in
  // SQL on their dead-letter columns); by default the whole stream.
  virtual JournalReadResult read_letters(const std::string& stream,
                                         const JournalLetterFilter& /*filter*/) {
    return read(stream);
  }
  // One page of the stream's live dead letters (what read_dead_letter_journal
  // keeps when it folds the stream), newest first by the sequence of each
  // one's live "captured" record: below `before` when set, at most `limit`,
  // narrowed like read_letters (the caller filters again). Read without the
  // rest of the stream where the journal can (the database journals: one SQL
  // query with LIMIT); nullopt when it cannot (then the caller folds a read).
  virtual std::optional<std::vector<JournalLiveLetter>> read_live_letters(
      const std::string& /*stream*/, const JournalLetterFilter& /*filter*/,
      std::optional<std::uint64_t> /*before*/, std::size_t /*limit*/) {
    return std::nullopt;
  }
  // How many dead letters each stream holds as read_dead_letter_journal folds
  // it (a "captured" record with no later "captured" or "removed" of its id
  // and no later "cleared"), counted without reading the records where the
  // journal can (the database journals: one SQL count); nullopt when it
  // cannot (then the caller reads). A stream without letters may be missing.
  virtual std::optional<std::map<std::string, std::uint64_t>> count_letters() {
    return std::nullopt;
  }
  // Records appended but not yet stored (a database that went away): the
  // figure behind the mailroom_journal_backlog metric. nullopt for journals
  // that never queue (no metric is written for them).
  virtual std::optional<std::uint64_t> backlog() const { return std::nullopt; }
};

}  // namespace mailroom
