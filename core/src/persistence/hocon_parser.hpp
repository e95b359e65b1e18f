// The HOCON reader behind HoconConfig::parse (internal to the persistence area).
#pragma once

#include <memory>
#include <string_view>

#include "mailroom/hocon_config.hpp"

namespace mailroom::detail {

// Deepest object nesting accepted (dotted key segments count as levels), so
// hostile input cannot exhaust the stack.
inline constexpr std::size_t kHoconMaxDepth = 256;

// Throws ConfigError with the 1-based line and column of the offending character.
std::shared_ptr<HoconObject> parse_hocon(std::string_view text);

}  // namespace mailroom::detail
