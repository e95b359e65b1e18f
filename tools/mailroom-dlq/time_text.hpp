// Times on the command line and in tables: UTC ISO-8601 text <-> epoch milliseconds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mailroom::dlq {

// "2026-12-01T10:00:00.123Z" (always UTC, always milliseconds).
std::string iso_utc(std::int64_t epoch_ms);

// --since: epoch milliseconds ("1764583200000"), a UTC date or date-time
// ("2026-12-01", "2026-12-01T18:00", "2026-12-01T18:00:05Z") or an age
// before `now_ms` ("90s", "30m", "12h", "7d"). nullopt when it is none of these.
std::optional<std::int64_t> parse_since(std::string_view text, std::int64_t now_ms);

}  // namespace mailroom::dlq
