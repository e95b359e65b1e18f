#include "sqlite_statement.hpp"

#include <stdexcept>

#include "mailroom/journal_database_errors.hpp"

namespace mailroom::detail {

void throw_sqlite(sqlite3* db, int rc, const std::string& location, const std::string& what) {
  const std::string message = what + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_PROTOCOL:
      throw JournalUnavailableError(location, message);
    default:
      throw std::runtime_error("journal database " + location + ": " + message);
  }
}

void sqlite_exec(sqlite3* db, const char* sql, const std::string& location,
                 const std::string& what) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    sqlite3_free(error);
    throw_sqlite(db, rc, location, what);
  }
}

SqliteStatement::SqliteStatement(sqlite3* db, const char* sql, const std::string& location)
    : db_(db), location_(location) {
  const int rc = sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr);
  if (rc != SQLITE_OK) throw_sqlite(db, rc, location, std::string("preparing ") + sql);
}

SqliteStatement::~SqliteStatement() {
  sqlite3_finalize(statement_);
}

SqliteStatement& SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  return *this;
}

SqliteStatement& SqliteStatement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}

SqliteStatement& SqliteStatement::bind_text(int index, std::string_view value) {
  sqlite3_bind_text64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

SqliteStatement& SqliteStatement::bind_blob(int index, std::string_view value) {
  sqlite3_bind_blob64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT);
  return *this;
}

SqliteStatement& SqliteStatement::bind_null(int index) {
  sqlite3_bind_null(statement_, index);
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  const std::string sql = sqlite3_sql(statement_);
  sqlite3_reset(statement_);
  throw_sqlite(db_, rc, location_, "running " + sql);
}

bool SqliteStatement::is_null(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}

std::int64_t SqliteStatement::integer(int column) const {
  return sqlite3_column_int64(statement_, column);
}

std::string SqliteStatement::text(int column) const {
  const auto* data = sqlite3_column_text(statement_, column);
  return data ? std::string(reinterpret_cast<const char*>(data),
                            static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
              : std::string();
}

std::string SqliteStatement::blob(int column) const {
  const void* data = sqlite3_column_blob(statement_, column);
  return data ? std::string(static_cast<const char*>(data),
                            static_cast<std::size_t>(sqlite3_column_bytes(statement_, column)))
              : std::string();
}

SqliteTransaction::SqliteTransaction(sqlite3* db, const std::string& location)
    : db_(db), location_(location) {
  sqlite_exec(db, "BEGIN IMMEDIATE", location, "starting a write transaction");
}

SqliteTransaction::~SqliteTransaction() {
  if (open_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

void SqliteTransaction::commit() {
  sqlite_exec(db_, "COMMIT", location_, "committing");
  open_ = false;
}

}  // namespace mailroom::detail
