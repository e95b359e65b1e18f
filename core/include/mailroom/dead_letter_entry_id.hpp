// The one rule for a dead-letter entry id written as text (the JS API, the
// DevTools protocol): exactly the decimal form the queue writes ("17"), so
// "01", "+1", " 1", "1.0" or "" name no entry, rather than entry 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mailroom {

std::optional<std::uint64_t> parse_dead_letter_entry_id(std::string_view text) noexcept;

}  // namespace mailroom
