// The named errors of the database journals (SQLite, PostgreSQL), beside
// JournalLockedError (a second writer on a stream) from the core.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace mailroom {

// The database cannot be reached or refused the write for a reason that may
// pass (server down, connection lost, disk full, busy beyond the timeout).
// Appends stay queued and are retried; flush() and reads throw this.
class JournalUnavailableError : public std::runtime_error {
 public:
  JournalUnavailableError(std::string location, const std::string& why);
  const std::string& location() const noexcept { return location_; }

 private:
  std::string location_;
};

// An append found a different record already stored under (stream, seq):
// never overwritten, the stream stops taking appends.
class JournalConflictError : public std::runtime_error {
 public:
  JournalConflictError(std::string stream, std::uint64_t sequence, const std::string& location);
  const std::string& stream() const noexcept { return stream_; }
  std::uint64_t sequence() const noexcept { return sequence_; }

 private:
  std::string stream_;
  std::uint64_t sequence_;
};

// The database has been away long enough that max_backlog records wait: this
// append is refused (nothing queued before it is dropped).
class JournalBacklogFullError : public std::runtime_error {
 public:
  JournalBacklogFullError(std::string stream, std::uint64_t backlog, const std::string& location);
  const std::string& stream() const noexcept { return stream_; }
  std::uint64_t backlog() const noexcept { return backlog_; }

 private:
  std::string stream_;
  std::uint64_t backlog_;
};

// The database holds a schema this build does not know (newer, or not a
// Mailroom journal), or a read-only open found no schema at all.
class JournalSchemaError : public std::runtime_error {
 public:
  JournalSchemaError(std::string location, const std::string& why);
  const std::string& location() const noexcept { return location_; }

 private:
  std::string location_;
};

}  // namespace mailroom
