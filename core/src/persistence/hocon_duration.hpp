// Duration text ("250ms", "1 h", "1.5 seconds", "42") to milliseconds
// (internal to the persistence area).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace mailroom::detail {

// nullopt for anything that is not a number with an optional known unit, or
// that does not fit in 64 bits of milliseconds. A bare number is milliseconds.
std::optional<std::int64_t> parse_duration_ms(std::string_view text);

}  // namespace mailroom::detail
