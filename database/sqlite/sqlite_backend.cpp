#include "sqlite_backend.hpp"

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <variant>

#include "../common/letter_filter_sql.hpp"
#include "../common/live_letter_count_sql.hpp"
#include "../common/live_letters_sql.hpp"
#include "../common/process_identity.hpp"
#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "sqlite_schema.hpp"

namespace mailroom::detail {
namespace {

constexpr int kBusyTimeoutMs = 5000;

// Tokens of this process's open journals: a lease with this pid but a token
// not here was left by a journal object that is gone, so it is free.
std::mutex tokens_mutex;
std::set<std::string>& live_tokens() {
  static std::set<std::string> tokens;
  return tokens;
}

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace

SqliteBackend::SqliteBackend(std::string path, bool read_only)
    : path_(std::move(path)),
      location_("sqlite:" + path_),
      read_only_(read_only),
      token_(new_writer_token()) {
  const int flags =
      (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) |
      SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path_.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw std::runtime_error("cannot open journal database " + location_ + ": " + why);
  }
  try {
    sqlite3_busy_timeout(db_, kBusyTimeoutMs);
    if (read_only_) {
      const int version = sqlite_schema_version(db_, location_);
      if (version == 0) throw JournalSchemaError(location_, "not a Mailroom journal (no schema)");
      if (version > kSqliteSchemaVersion) {
        throw JournalSchemaError(location_, "schema version " + std::to_string(version) +
                                                " is newer than this build knows");
      }
    } else {
      // WAL: readers (other processes, mailroom-dlq) never block the writer.
      {
        SqliteStatement wal(db_, "PRAGMA journal_mode = WAL", location_);
        if (!wal.step() || wal.text(0) != "wal") {
          throw std::runtime_error("journal database " + location_ + " cannot use WAL mode");
        }
      }
      // FULL: a commit is on disk when flush() returns, as the file journal's fsync.
      sqlite_exec(db_, "PRAGMA synchronous = FULL", location_, "setting synchronous");
      migrate_sqlite_schema(db_, location_);
      insert_ = std::make_unique<SqliteStatement>(
          db_,
          "INSERT INTO mailroom_journal (stream_id, seq, payload, kind, letter_id, recipient, "
          "ts_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (stream_id, seq) DO NOTHING",
          location_);
      existing_ = std::make_unique<SqliteStatement>(
          db_, "SELECT payload FROM mailroom_journal WHERE stream_id = ?1 AND seq = ?2", location_);
      lease_ = std::make_unique<SqliteStatement>(
          db_,
          "SELECT writer_pid, writer_start, writer_host, writer_token, deleted_up_to "
          "FROM mailroom_streams WHERE stream_id = ?1",
          location_);
    }
  } catch (...) {
    insert_.reset();
    existing_.reset();
    lease_.reset();
    sqlite3_close(db_);
    throw;
  }
  std::lock_guard lock(tokens_mutex);
  live_tokens().insert(token_);
}

SqliteBackend::~SqliteBackend() {
  {
    std::lock_guard lock(tokens_mutex);
    live_tokens().erase(token_);
  }
  insert_.reset();
  existing_.reset();
  lease_.reset();
  sqlite3_close(db_);
}

std::string SqliteBackend::holder_text(long pid, const std::string& host) const {
  const ProcessIdentity& me = this_process();
  if (pid == me.pid && host == me.host) return "another journal of this process";
  return "process " + std::to_string(pid) + (host == me.host ? "" : " on host " + host);
}

std::uint64_t SqliteBackend::acquire(const std::string& stream) {
  if (read_only_) throw std::logic_error("journal " + location_ + " is open read-only");
  const ProcessIdentity& me = this_process();
  SqliteTransaction transaction(db_, location_);
  lease_->reset().bind_text(1, stream);
  if (lease_->step() && !lease_->is_null(3)) {
    const long pid = static_cast<long>(lease_->integer(0));
    const std::string start = lease_->text(1);
    const std::string host = lease_->text(2);
    const std::string token = lease_->text(3);
    if (token != token_) {
      bool alive = true;  // another host's process cannot be checked: it holds the lease
      if (host == me.host) {
        if (pid == me.pid && start == me.start) {
          std::lock_guard lock(tokens_mutex);
          alive = live_tokens().count(token) > 0;
        } else {
          alive = process_alive(pid, start);
        }
      }
      if (alive) {
        lease_->reset();
        throw JournalLockedError(stream, location_, holder_text(pid, host));
      }
    }
  }
  lease_->reset();
  SqliteStatement take(
      db_,
      "INSERT INTO mailroom_streams (stream_id, writer_pid, writer_start, "
      "writer_host, writer_token, writer_since_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT (stream_id) DO UPDATE SET writer_pid = excluded.writer_pid, "
      "writer_start = excluded.writer_start, writer_host = excluded.writer_host, "
      "writer_token = excluded.writer_token, "
      "writer_since_ms = excluded.writer_since_ms",
      location_);
  take.bind_text(1, stream).bind(2, me.pid).bind_text(3, me.start).bind_text(4, me.host);
  take.bind_text(5, token_).bind(6, now_ms()).step();
  SqliteStatement highest(db_,
                          "SELECT max(coalesce((SELECT max(seq) FROM mailroom_journal "
                          "WHERE stream_id = ?1), 0), deleted_up_to) "
                          "FROM mailroom_streams WHERE stream_id = ?1",
                          location_);
  highest.bind_text(1, stream);
  const std::uint64_t last = highest.step() ? static_cast<std::uint64_t>(highest.integer(0)) : 0;
  highest.reset();  // a statement still on a row would keep the transaction open
  transaction.commit();
  return last;
}

void SqliteBackend::release(const std::string& stream) {
  if (read_only_) return;
  SqliteStatement free(db_,
                       "UPDATE mailroom_streams SET writer_pid = NULL, writer_start = NULL, "
                       "writer_host = NULL, writer_token = NULL, writer_since_ms = NULL "
                       "WHERE stream_id = ?1 AND writer_token = ?2",
                       location_);
  free.bind_text(1, stream).bind_text(2, token_).step();
}

void SqliteBackend::check_lease(const std::string& stream) {
  lease_->reset().bind_text(1, stream);
  const bool found = lease_->step();
  if (found && !lease_->is_null(3) && lease_->text(3) == token_) {
    lease_->reset();
    return;
  }
  const std::string holder =
      found && !lease_->is_null(3)
          ? holder_text(static_cast<long>(lease_->integer(0)), lease_->text(2)) +
                " (it took over this journal's lease)"
          : "nobody: this journal's lease was cleared";
  lease_->reset();
  throw JournalLockedError(stream, location_, holder);
}

void SqliteBackend::append(const std::string& stream, const std::vector<DatabaseRow>& rows) {
  SqliteTransaction transaction(db_, location_);
  check_lease(stream);
  for (const DatabaseRow& row : rows) {
    insert_->reset().bind_text(1, stream).bind(2, static_cast<std::int64_t>(row.sequence));
    insert_->bind_blob(3, row.payload);
    row.kind ? insert_->bind_text(4, *row.kind) : insert_->bind_null(4);
    row.letter_id ? insert_->bind(5, static_cast<std::int64_t>(*row.letter_id))
                  : insert_->bind_null(5);
    row.recipient ? insert_->bind_text(6, *row.recipient) : insert_->bind_null(6);
    row.timestamp_ms ? insert_->bind(7, *row.timestamp_ms) : insert_->bind_null(7);
    insert_->step();
    if (sqlite3_changes(db_) == 0) {  // already there (a retried batch): must be the same
      existing_->reset().bind_text(1, stream).bind(2, static_cast<std::int64_t>(row.sequence));
      const bool same = existing_->step() && existing_->blob(0) == row.payload;
      existing_->reset();
      if (!same) throw JournalConflictError(stream, row.sequence, location_);
    }
  }
  insert_->reset();
  transaction.commit();
}

std::vector<JournalRecord> SqliteBackend::read(const std::string& stream) {
  return read_letters(stream, {});
}

std::vector<JournalRecord> SqliteBackend::read_letters(const std::string& stream,
                                                       const JournalLetterFilter& filter) {
  const detail::LetterFilterSql narrow = detail::letter_filter_sql(filter, 2, '?');
  const std::string sql = "SELECT seq, payload FROM mailroom_journal WHERE stream_id = ?1" +
                          narrow.where + " ORDER BY seq";
  SqliteStatement query(db_, sql.c_str(), location_);
  query.bind_text(1, stream);
  int index = 2;
  for (const auto& p : narrow.params) {
    if (const auto* text = std::get_if<std::string>(&p)) {
      query.bind_text(index++, *text);
    } else {
      query.bind(index++, std::get<std::int64_t>(p));
    }
  }
  std::vector<JournalRecord> out;
  while (query.step()) {
    out.push_back({static_cast<std::uint64_t>(query.integer(0)), query.blob(1)});
  }
  return out;
}

std::optional<std::vector<JournalLiveLetter>> SqliteBackend::read_live_letters(
    const std::string& stream, const JournalLetterFilter& filter,
    std::optional<std::uint64_t> before, std::size_t limit) {
  const detail::LiveLettersSql page = detail::live_letters_sql(stream, filter, before, limit, '?');
  SqliteStatement query(db_, page.sql.c_str(), location_);
  int index = 1;
  for (const auto& p : page.params) {
    if (const auto* text = std::get_if<std::string>(&p)) {
      query.bind_text(index++, *text);
    } else {
      query.bind(index++, std::get<std::int64_t>(p));
    }
  }
  std::vector<JournalLiveLetter> out;
  while (query.step()) {
    out.push_back(
        {{static_cast<std::uint64_t>(query.integer(0)), query.blob(1)}, query.integer(2) != 0});
  }
  return out;
}

void SqliteBackend::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  SqliteTransaction transaction(db_, location_);
  check_lease(stream);
  SqliteStatement mark(db_,
                       "UPDATE mailroom_streams SET deleted_up_to = max(deleted_up_to, ?2) "
                       "WHERE stream_id = ?1",
                       location_);
  mark.bind_text(1, stream).bind(2, static_cast<std::int64_t>(up_to)).step();
  SqliteStatement trim(db_, "DELETE FROM mailroom_journal WHERE stream_id = ?1 AND seq <= ?2",
                       location_);
  trim.bind_text(1, stream).bind(2, static_cast<std::int64_t>(up_to)).step();
  transaction.commit();
}

std::vector<std::string> SqliteBackend::streams() {
  SqliteStatement query(db_, "SELECT stream_id FROM mailroom_streams ORDER BY stream_id",
                        location_);
  std::vector<std::string> out;
  while (query.step()) out.push_back(query.text(0));
  return out;
}

std::optional<std::map<std::string, std::uint64_t>> SqliteBackend::count_letters() {
  static const std::string sql = live_letter_count_sql(true);
  SqliteStatement query(db_, sql.c_str(), location_);
  std::map<std::string, std::uint64_t> out;
  while (query.step()) out[query.text(0)] = static_cast<std::uint64_t>(query.integer(1));
  return out;
}

}  // namespace mailroom::detail
