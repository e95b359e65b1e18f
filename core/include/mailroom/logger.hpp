// Logger: a named source writing to its system's log sink and event stream.
// Cheap to copy; valid as long as its system exists.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "mailroom/log_level.hpp"

namespace mailroom {

namespace detail {
class LogRouter;
}

class Logger {
 public:
  Logger() = default;  // logs nowhere
  Logger(std::string source, std::shared_ptr<detail::LogRouter> router)
      : source_(std::move(source)), router_(std::move(router)) {}

  // Dropped unless level passes the system's log level (log_level.hpp).
  void log(LogLevel level, std::string_view message) const;
  // Whether log(level, ...) would reach the sink: skip building costly text.
  bool enabled(LogLevel level) const noexcept;
  void debug(std::string_view message) const { log(LogLevel::kDebug, message); }
  void info(std::string_view message) const { log(LogLevel::kInfo, message); }
  void warn(std::string_view message) const { log(LogLevel::kWarn, message); }
  void error(std::string_view message) const { log(LogLevel::kError, message); }
  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
  std::shared_ptr<detail::LogRouter> router_;
};

}  // namespace mailroom
