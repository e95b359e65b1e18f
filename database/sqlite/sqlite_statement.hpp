// A thin RAII layer over the SQLite C API: prepared statements, one-off SQL,
// transactions rolled back unless committed, and the error mapping (busy,
// I/O, full disk -> JournalUnavailableError, retried; anything else -> a
// runtime_error naming the database and the statement's job).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace mailroom::detail {

[[noreturn]] void throw_sqlite(sqlite3* db, int rc, const std::string& location,
                               const std::string& what);

void sqlite_exec(sqlite3* db, const char* sql, const std::string& location,
                 const std::string& what);

class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, const char* sql, const std::string& location);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& reset();  // also clears the bindings
  SqliteStatement& bind(int index, std::int64_t value);
  SqliteStatement& bind_text(int index, std::string_view value);
  SqliteStatement& bind_blob(int index, std::string_view value);
  SqliteStatement& bind_null(int index);
  // true: a row is there; false: done. Throws on error.
  bool step();
  bool is_null(int column) const;
  std::int64_t integer(int column) const;
  std::string text(int column) const;
  std::string blob(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
  const std::string& location_;
};

// BEGIN IMMEDIATE (the database's write lock, waited for up to the busy
// timeout) ... commit(); rolled back when left without commit.
class SqliteTransaction {
 public:
  SqliteTransaction(sqlite3* db, const std::string& location);
  ~SqliteTransaction();
  void commit();

 private:
  sqlite3* db_;
  const std::string& location_;
  bool open_ = true;
};

}  // namespace mailroom::detail
