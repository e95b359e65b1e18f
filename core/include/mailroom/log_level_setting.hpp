// Which level a system logs at: explicit option > HOCON `mailroom.logger.level`
// > info. A config file never stops a system from starting over its log
// level: an unknown name there falls back to info and says so in a warning.
#pragma once

#include <optional>
#include <string>

#include "mailroom/log_level.hpp"

namespace mailroom {

class HoconConfig;

struct LogLevelSetting {
  LogLevel level = LogLevel::kInfo;
  std::string warning;  // empty unless the HOCON value was not a level name

  // config may be null.
  static LogLevelSetting resolve(std::optional<LogLevel> explicit_level, const HoconConfig* config);
};

}  // namespace mailroom
