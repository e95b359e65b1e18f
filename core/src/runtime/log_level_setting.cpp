#include "mailroom/log_level_setting.hpp"

#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {

namespace {
constexpr const char* kLevelKey = "mailroom.logger.level";
}

LogLevelSetting LogLevelSetting::resolve(std::optional<LogLevel> explicit_level,
                                         const HoconConfig* config) {
  LogLevelSetting setting;
  if (explicit_level) {
    setting.level = *explicit_level;
    return setting;
  }
  if (config == nullptr || !config->has(kLevelKey)) return setting;
  std::string text;
  try {
    text = config->get_string(kLevelKey).value_or("");
  } catch (const ConfigError&) {
    text = config->find(kLevelKey)->to_text();  // an object: not a name either
  }
  if (auto level = log_level_from_string(text)) {
    setting.level = *level;
  } else {
    setting.warning = std::string(kLevelKey) + " = " + text +
                      " is not a log level (debug, info, warn, error, off): logging at info";
  }
  return setting;
}

}  // namespace mailroom
