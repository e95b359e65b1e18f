// DatabaseBackend over one libpq connection (see postgres_journal.hpp).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "mailroom/database_journal.hpp"
#include "pg_connection.hpp"

namespace mailroom::detail {

class PostgresBackend final : public DatabaseBackend {
 public:
  // Connects and (unless read-only) migrates; throws JournalUnavailableError
  // when the server cannot be reached, JournalSchemaError for a foreign schema.
  PostgresBackend(const std::string& conninfo, bool read_only);

  std::string location() const override { return db_.location(); }
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

  PgConnection& connection() { return db_; }

 private:
  // Connected, with every held stream's lock taken again after a reconnect;
  // a stream whose lock another session took meanwhile is fenced.
  void ensure();
  // Reads run once more on a fresh connection when the old one turns out dead.
  template <class F>
  auto once_more_if_dropped(F&& f) -> decltype(f());
  // Throws JournalLockedError unless this session holds the stream.
  void check_writer(const std::string& stream);
  bool try_lock(const std::string& stream);
  std::string holder_of(const std::string& stream);
  std::uint64_t highest(const std::string& stream);
  std::vector<JournalRecord> read_pages(const std::string& stream,
                                        const JournalLetterFilter& filter);

  PgConnection db_;
  bool read_only_;
  std::set<std::string> held_;                 // this session holds their advisory locks
  std::map<std::string, std::string> fenced_;  // lost to another writer: stream -> holder
};

}  // namespace mailroom::detail
