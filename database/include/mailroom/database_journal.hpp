// DatabaseJournal: the Journal contract over a SQL database (SQLite or
// PostgreSQL, see sqlite_journal.hpp and postgres_journal.hpp), one table
// keyed by (stream_id, seq) that several processes share, each writing only
// its own stream.
// - append() queues the record and returns its sequence at once; a writer
//   thread stores queued records in batches (at batch_records, after
//   commit_interval, on flush()). A record is acknowledged when flush()
//   returns: everything appended before it is stored.
// - A database that goes away keeps the records queued (at most max_backlog;
//   beyond, append throws JournalBacklogFullError) and retried with backoff;
//   flush() waits up to flush_timeout and then throws JournalUnavailableError.
//   backlog() says how many records wait (the mailroom_journal_backlog metric).
// - Retried batches are idempotent: an existing identical (stream, seq) row
//   is kept, a different one is JournalConflictError and stops the stream.
// - One writer per stream (the backend's guard): a second gets JournalLockedError.
// - delete_up_to() never waits: queued records it covers are dropped, stored
//   ones are deleted by the writer thread.
// Thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom {

struct DatabaseJournalOptions {
  std::size_t max_backlog = 100000;               // records queued in total before append refuses
  std::size_t batch_records = 512;                // records per transaction at most
  std::chrono::milliseconds commit_interval{20};  // a queued record waits at most this long
  std::chrono::milliseconds flush_timeout{10000};
  std::chrono::milliseconds retry_min{20};  // backoff while the database is away, doubling
  std::chrono::milliseconds retry_max{1000};
};

// One stored row: the record and the dead-letter columns read from its JSON
// (null for records that are not the dead-letter queue's).
struct DatabaseRow {
  std::uint64_t sequence = 0;
  std::string payload;
  std::optional<std::string> kind;  // "captured", "removed", "cleared"
  std::optional<std::uint64_t> letter_id;
  std::optional<std::string> recipient;
  std::optional<std::int64_t> timestamp_ms;
};
DatabaseRow make_database_row(std::uint64_t sequence, std::string payload);

// What a database must do; one connection, called by one thread at a time.
// Every call (re)connects when needed and throws JournalUnavailableError when
// it cannot, so a retry is just the same call again.
class DatabaseBackend {
 public:
  virtual ~DatabaseBackend() = default;
  virtual std::string location() const = 0;  // for messages, never a password
  // Becomes the stream's writer (also again after a reconnect, by itself);
  // returns the highest sequence the stream ever had (compacted ones too).
  virtual std::uint64_t acquire(const std::string& stream) = 0;
  virtual void release(const std::string& stream) = 0;
  // One transaction: inserts the rows unless present; a present row must be
  // identical (JournalConflictError). Also fails if the writer's guard is lost.
  virtual void append(const std::string& stream, const std::vector<DatabaseRow>& rows) = 0;
  virtual std::vector<JournalRecord> read(const std::string& stream) = 0;
  // read(), leaving out "captured" rows outside the filter (the columns kind,
  // recipient, ts_ms); by default the whole stream.
  virtual std::vector<JournalRecord> read_letters(const std::string& stream,
                                                  const JournalLetterFilter& /*filter*/) {
    return read(stream);
  }
  // Journal::read_live_letters in SQL; nullopt: not paged here.
  virtual std::optional<std::vector<JournalLiveLetter>> read_live_letters(
      const std::string& /*stream*/, const JournalLetterFilter& /*filter*/,
      std::optional<std::uint64_t> /*before*/, std::size_t /*limit*/) {
    return std::nullopt;
  }
  virtual void delete_up_to(const std::string& stream, std::uint64_t up_to) = 0;
  virtual std::vector<std::string> streams() = 0;
  // Live dead letters per stream (Journal::count_letters); nullopt: not counted here.
  virtual std::optional<std::map<std::string, std::uint64_t>> count_letters() {
    return std::nullopt;
  }
};

class DatabaseJournal final : public Journal {
 public:
  // read_only: append, acquire and delete_up_to throw std::logic_error.
  DatabaseJournal(std::unique_ptr<DatabaseBackend> backend, DatabaseJournalOptions options = {},
                  bool read_only = false);
  // Stores what it can within flush_timeout, then releases every stream.
  ~DatabaseJournal() override;
  DatabaseJournal(const DatabaseJournal&) = delete;
  DatabaseJournal& operator=(const DatabaseJournal&) = delete;

  JournalReadResult read(const std::string& stream) override;
  JournalReadResult read_letters(const std::string& stream,
                                 const JournalLetterFilter& filter) override;
  std::optional<std::vector<JournalLiveLetter>> read_live_letters(
      const std::string& stream, const JournalLetterFilter& filter,
      std::optional<std::uint64_t> before, std::size_t limit) override;
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override;
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;
  void acquire(const std::string& stream) override;
  void release(const std::string& stream) override;
  std::vector<std::string> streams() override;
  std::optional<std::map<std::string, std::uint64_t>> count_letters() override;
  std::optional<std::uint64_t> backlog() const override;

  std::string location() const;
  // Why the last write failed while the database is away; "" when fine.
  std::string unavailable_reason() const;

 private:
  struct Stream {
    bool writer = false;
    std::uint64_t last_sequence = 0;
    std::deque<std::pair<std::uint64_t, std::string>> queued;  // oldest first
    std::size_t in_flight = 0;      // records taken by the writer thread now
    std::uint64_t delete_mark = 0;  // delete_up_to asked for this
    std::uint64_t deleted = 0;      // ... and this much is done
    std::exception_ptr failed;      // lost guard or conflict: no more appends
  };

  Stream& become_writer_locked(const std::string& stream);
  bool idle_locked() const;  // nothing queued, in flight or to delete (failed streams aside)
  void writer_loop();
  // One round over every stream; false when the database was away.
  bool write_round(std::unique_lock<std::mutex>& lock);

  DatabaseJournalOptions options_;
  const bool read_only_;

  mutable std::mutex db_mutex_;  // the backend (after mutex_ when both are held)
  std::unique_ptr<DatabaseBackend> backend_;
  const std::string location_;

  mutable std::mutex mutex_;
  std::condition_variable work_;  // wakes the writer thread
  std::condition_variable done_;  // wakes flush()
  std::map<std::string, Stream> streams_;
  std::atomic<std::uint64_t> backlog_{0};
  std::uint64_t flushes_waiting_ = 0;
  bool stopping_ = false;
  std::string unavailable_;
  std::thread writer_;
};

}  // namespace mailroom
