// Severity of a log event, and the threshold a system logs at: an event
// reaches the sink and the event stream when its level is at least the
// system's (default kInfo). kOff is a threshold only: it silences everything.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class LogLevel { kDebug, kInfo, kWarn, kError, kOff };

// "debug", "info", "warn", "error", "off"
std::string_view to_string(LogLevel level) noexcept;
std::optional<LogLevel> log_level_from_string(std::string_view text) noexcept;

// The one rule both targets apply: does an event of `level` pass `threshold`?
constexpr bool log_level_passes(LogLevel level, LogLevel threshold) noexcept {
  return level != LogLevel::kOff && threshold != LogLevel::kOff && level >= threshold;
}

}  // namespace mailroom
