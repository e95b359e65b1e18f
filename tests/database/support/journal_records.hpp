#pragma once
// Journal records as the dead-letter queue writes them, for the database
// journals' tests: a captured letter's and a tombstone's record text, a read's sequences.
#include <cstdint>
#include <string>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom::testing {

inline std::vector<std::uint64_t> sequences(const JournalReadResult& read) {
  std::vector<std::uint64_t> out;
  for (const auto& r : read.records) out.push_back(r.sequence);
  return out;
}

// A "captured" record of letter `id` to `recipient`, its payload the string "m<id>".
inline std::string captured(std::uint64_t id, const std::string& recipient) {
  return R"({"k":"captured","id":)" + std::to_string(id) + R"(,"ts":1000,"r":")" + recipient +
         R"(","s":null,"n":0,"why":"no-recipient","p":{"t":"string","v":"m)" + std::to_string(id) +
         R"(","c":"string"}})";
}

// A "removed" record (a tombstone) of letter `id`.
inline std::string removed(std::uint64_t id) {
  return R"({"k":"removed","id":)" + std::to_string(id) + "}";
}

}  // namespace mailroom::testing
