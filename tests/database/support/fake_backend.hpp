// A DatabaseBackend in memory whose database can be sent away and brought
// back, and whose next commit can be lost after it happened (the reply
// lost on the wire), for the DatabaseJournal tests.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "mailroom/database_journal.hpp"

namespace mailroom::testing {

struct FakeDatabase {
  std::mutex mutex;
  std::map<std::string, std::map<std::uint64_t, std::string>> rows;
  std::map<std::string, std::uint64_t> deleted_up_to;
  bool away = false;
  bool lose_next_reply = false;  // the next append commits, then reports the database away
  int append_calls = 0;
  std::set<std::string> writers;

  std::map<std::uint64_t, std::string> stream(const std::string& name) {
    std::lock_guard lock(mutex);
    return rows[name];
  }
  void set_away(bool value) {
    std::lock_guard lock(mutex);
    away = value;
  }
};

class FakeBackend final : public DatabaseBackend {
 public:
  explicit FakeBackend(std::shared_ptr<FakeDatabase> db) : db_(std::move(db)) {}
  std::string location() const override { return "fake:"; }
  std::uint64_t acquire(const std::string& stream) override;
  void release(const std::string& stream) override;
  void append(const std::string& stream, const std::vector<DatabaseRow>& rows) override;
  std::vector<JournalRecord> read(const std::string& stream) override;
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;
  std::vector<std::string> streams() override;

 private:
  void check_here();  // mutex held
  std::shared_ptr<FakeDatabase> db_;
};

}  // namespace mailroom::testing
