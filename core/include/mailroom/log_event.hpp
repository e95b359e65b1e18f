// One log line: handed to the system's LogSink and published on the event stream.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "mailroom/log_level.hpp"

namespace mailroom {

struct LogEvent {
  LogLevel level = LogLevel::kInfo;
  std::string source;  // local path of the actor ("/user/a"), or the system name
  std::string message;
  std::int64_t timestamp_ms = 0;
};

// Where log events go. Called on the logging thread; must not throw.
using LogSink = std::function<void(const LogEvent&)>;

}  // namespace mailroom
