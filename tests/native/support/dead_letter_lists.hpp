// Small readers for dead-letter test assertions: a recipient filter, and the
// ids or recipient paths of a list() result, in its order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mailroom/dead_letter_entry.hpp"
#include "mailroom/dead_letter_filter.hpp"

namespace mailroom::testing {

inline DeadLetterFilter by_recipient(std::string path) {
  DeadLetterFilter filter;
  filter.recipient = std::move(path);
  return filter;
}

inline std::vector<std::uint64_t> ids(const std::vector<DeadLetterEntry>& entries) {
  std::vector<std::uint64_t> out;
  for (const auto& e : entries) out.push_back(e.id);
  return out;
}

inline std::vector<std::string> recipients(const std::vector<DeadLetterEntry>& entries) {
  std::vector<std::string> out;
  for (const auto& e : entries) out.push_back(e.recipient_path);
  return out;
}

}  // namespace mailroom::testing
