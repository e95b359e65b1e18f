// Severity of a log event.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

std::string_view to_string(LogLevel level) noexcept;  // "debug", "info", "warn", "error"
std::optional<LogLevel> log_level_from_string(std::string_view text) noexcept;

}  // namespace mailroom
