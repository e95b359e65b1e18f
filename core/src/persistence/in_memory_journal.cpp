#include "mailroom/in_memory_journal.hpp"

#include <algorithm>

namespace mailroom {

JournalReadResult InMemoryJournal::read(const std::string& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  JournalReadResult result;
  auto it = streams_.find(stream);
  if (it != streams_.end()) result.records = it->second.records;
  return result;
}

std::uint64_t InMemoryJournal::append(const std::string& stream, std::string payload) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stream& s = streams_[stream];
  s.records.push_back(JournalRecord{++s.last_sequence, std::move(payload)});
  return s.last_sequence;
}

void InMemoryJournal::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end()) return;
  auto& records = it->second.records;
  records.erase(std::remove_if(records.begin(), records.end(),
                               [up_to](const JournalRecord& r) { return r.sequence <= up_to; }),
                records.end());
}

}  // namespace mailroom
