#include "mailroom/dead_letter_entry_id.hpp"

#include <charconv>

namespace mailroom {

std::optional<std::uint64_t> parse_dead_letter_entry_id(std::string_view text) noexcept {
  // Digits only, and no leading zero: one id has one spelling.
  if (text.empty() || (text.size() > 1 && text.front() == '0')) return std::nullopt;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;  // > 2^64-1
  return value;
}

}  // namespace mailroom
