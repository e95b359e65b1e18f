// Opt-in dead-letter logging with storm suppression (beyond the seed, which
// logs nothing): `mailroom.log-dead-letters = N` logs the first N letters,
// then one summary per `mailroom.log-dead-letters-summary-interval`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace mailroom {

class HoconConfig;

struct DeadLetterLogSettings {
  static constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

  std::size_t log_first = 0;                 // 0 = off (the default)
  std::int64_t summary_interval_ms = 10000;  // > 0

  // `log-dead-letters`: an integer >= 0, off/false (0) or on/true (every
  // letter). `log-dead-letters-summary-interval`: a duration > 0. config may
  // be null. Bad values throw OptionsError{"DeadLetterLogSettings", key,
  // value}; wrong types ConfigError with line and column.
  static DeadLetterLogSettings from_config(const HoconConfig* config);
};

}  // namespace mailroom
