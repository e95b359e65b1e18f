// DatabaseBackend over one SQLite connection (see sqlite_journal.hpp).
#pragma once

#include <sqlite3.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "mailroom/database_journal.hpp"
#include "sqlite_statement.hpp"

namespace mailroom::detail {

class SqliteBackend final : public DatabaseBackend {
 public:
  SqliteBackend(std::string path, bool read_only);
  ~SqliteBackend() override;

  std::string location() const override { return location_; }
  std::uint64_t acquire(const std::string& stream) override;
  void release(const std::string& stream) override;
  void append(const std::string& stream, const std::vector<DatabaseRow>& rows) override;
  std::vector<JournalRecord> read(const std::string& stream) override;
  std::vector<JournalRecord> read_letters(const std::string& stream,
                                          const JournalLetterFilter& filter) override;
  std::optional<std::vector<JournalLiveLetter>> read_live_letters(
      const std::string& stream, const JournalLetterFilter& filter,
      std::optional<std::uint64_t> before, std::size_t limit) override;
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;
  std::vector<std::string> streams() override;
  std::optional<std::map<std::string, std::uint64_t>> count_letters() override;

  sqlite3* handle() const noexcept { return db_; }

 private:
  // Inside a write transaction: the stream's lease is still this journal's.
  void check_lease(const std::string& stream);
  std::string holder_text(long pid, const std::string& host) const;

  std::string path_;
  std::string location_;
  bool read_only_;
  std::string token_;
  sqlite3* db_ = nullptr;
  std::unique_ptr<SqliteStatement> insert_;
  std::unique_ptr<SqliteStatement> existing_;
  std::unique_ptr<SqliteStatement> lease_;
};

}  // namespace mailroom::detail
