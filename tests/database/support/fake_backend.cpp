#include "support/fake_backend.hpp"

#include <algorithm>

#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"

namespace mailroom::testing {

void FakeBackend::check_here() {
  if (db_->away) throw JournalUnavailableError("fake:", "the database is away");
}

std::uint64_t FakeBackend::acquire(const std::string& stream) {
  std::lock_guard lock(db_->mutex);
  check_here();
  if (!db_->writers.insert(stream).second) {
    throw JournalLockedError(stream, "fake:", "another fake journal");
  }
  auto& rows = db_->rows[stream];
  const std::uint64_t last = rows.empty() ? 0 : rows.rbegin()->first;
  return std::max(last, db_->deleted_up_to[stream]);
}

void FakeBackend::release(const std::string& stream) {
  std::lock_guard lock(db_->mutex);
  db_->writers.erase(stream);
}

void FakeBackend::append(const std::string& stream, const std::vector<DatabaseRow>& rows) {
  std::lock_guard lock(db_->mutex);
  ++db_->append_calls;
  check_here();
  auto& stored = db_->rows[stream];
  for (const auto& row : rows) {  // the conflict check first: one transaction
    auto it = stored.find(row.sequence);
    if (it != stored.end() && it->second != row.payload) {
      throw JournalConflictError(stream, row.sequence, "fake:");
    }
  }
  for (const auto& row : rows) stored.emplace(row.sequence, row.payload);
  if (db_->lose_next_reply) {
    db_->lose_next_reply = false;
    throw JournalUnavailableError("fake:", "connection lost during COMMIT");
  }
}

std::vector<JournalRecord> FakeBackend::read(const std::string& stream) {
  std::lock_guard lock(db_->mutex);
  check_here();
  std::vector<JournalRecord> out;
  for (const auto& [seq, payload] : db_->rows[stream]) out.push_back({seq, payload});
  return out;
}

void FakeBackend::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  std::lock_guard lock(db_->mutex);
  check_here();
  auto& stored = db_->rows[stream];
  stored.erase(stored.begin(), stored.upper_bound(up_to));
  db_->deleted_up_to[stream] = std::max(db_->deleted_up_to[stream], up_to);
}

std::vector<std::string> FakeBackend::streams() {
  std::lock_guard lock(db_->mutex);
  check_here();
  std::vector<std::string> out;
  for (const auto& [name, rows] : db_->rows) out.push_back(name);
  return out;
}

}  // namespace mailroom::testing
