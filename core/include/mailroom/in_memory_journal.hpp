// InMemoryJournal: the Journal contract kept in process memory, for tests and
// as the wasm fallback when no file system is mounted. Never damaged.
// Thread-safe.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom {

class InMemoryJournal final : public Journal {
 public:
  JournalReadResult read(const std::string& stream) override;
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override {}
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;

 private:
  struct Stream {
    std::uint64_t last_sequence = 0;  // survives deletion of every record
    std::vector<JournalRecord> records;
  };
  std::mutex mutex_;
  std::map<std::string, Stream> streams_;
};

}  // namespace mailroom
