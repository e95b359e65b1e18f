// FileJournal: one append-only file per stream, records framed with length,
// sequence and CRC32 (core/src/persistence/journal_frame.hpp), over a
// JournalStorage that only moves bytes: a native folder, node:fs or IndexedDB.
// - Appends are batched in memory and handed to the storage in one piece
//   (at 64 KiB, on flush(), read(), compaction and destruction); flush()
//   syncs outside the journal's lock, so appends go on while the disk works.
//   When a change must be durable is the dead-letter queue's decision
//   (sync-within), not the journal's.
// - Reading resynchronises after damage: every intact record comes back and
//   the damage is reported (where, how many bytes and records, why).
// - Before anything is rewritten, damaged bytes are appended to a side file
//   "<file>.damaged" (see docs/reliability.md for its layout), then the file is
//   replaced atomically by its intact records: damage never deletes intact data.
// - One writer per stream: acquire() (or the first append) takes the storage's
//   lock; a second journal asking for it gets JournalLockedError. Reading
//   needs no lock (a read-only view of a stream someone else writes).
// Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "mailroom/journal.hpp"
#include "mailroom/journal_storage.hpp"

namespace mailroom {

class FileJournal final : public Journal {
 public:
  // Over a DirectoryJournalStorage: creates the folder if missing; throws
  // std::runtime_error naming the path when it cannot.
  explicit FileJournal(std::string directory);
  explicit FileJournal(std::shared_ptr<JournalStorage> storage);
  ~FileJournal() override;  // hands batched records to the storage, releases locks (no sync)
  FileJournal(const FileJournal&) = delete;
  FileJournal& operator=(const FileJournal&) = delete;

  JournalReadResult read(const std::string& stream) override;
  // Throws std::invalid_argument for a payload over 64 MiB, JournalLockedError
  // when another journal writes the stream, std::runtime_error on I/O failure.
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override;  // hands every batch to the storage and syncs it
  void flush_then(std::function<void(std::string error)> done) override;
  std::int64_t default_sync_within_ms() const override {
    return storage_->default_sync_within_ms();
  }
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;
  void acquire(const std::string& stream) override;
  void release(const std::string& stream) override;

  // The file name of a stream: ids are escaped into a safe, collision-free
  // name, the same in every target (so files move between them).
  static std::string file_name(const std::string& stream);
  // The bytes of a whole stream file holding these records (sequences
  // increasing, all above base_sequence): for tools that convert other
  // formats into this one (the Node build's old JSON-lines journals).
  static std::string encode_file(std::uint64_t base_sequence,
                                 const std::vector<JournalRecord>& records);
  // Where a stream's file lives (the storage's location of file_name()).
  std::string path_for(const std::string& stream) const;
  const std::shared_ptr<JournalStorage>& storage() const noexcept { return storage_; }

 private:
  struct Stream {
    bool loaded = false;
    bool damaged = false;  // repair (keep aside, rewrite) before writing
    bool writer = false;   // holds the storage lock
    bool headed = false;   // the file (or the batch) starts with a header
    std::uint64_t last_sequence = 0;
    std::string pending;  // encoded records not yet handed to the storage
  };

  Stream& load(const std::string& stream);
  void scan(const std::string& stream, Stream& state, JournalReadResult* out);
  void write_pending(const std::string& stream, Stream& state);
  void become_writer(const std::string& stream, Stream& state);
  std::uint64_t rewrite(const std::string& stream, Stream& state, std::uint64_t drop_up_to,
                        const std::string* appended);

  std::shared_ptr<JournalStorage> storage_;
  std::mutex mutex_;
  std::map<std::string, Stream> streams_;
};

}  // namespace mailroom
