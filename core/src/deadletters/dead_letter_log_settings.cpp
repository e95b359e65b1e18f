#include "mailroom/dead_letter_log_settings.hpp"

#include <cmath>
#include <cstdio>
#include <string>

#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

constexpr const char* kFamily = "DeadLetterLogSettings";
constexpr const char* kCountKey = "mailroom.log-dead-letters";
constexpr const char* kIntervalKey = "mailroom.log-dead-letters-summary-interval";

std::size_t read_count(const HoconConfig& config) {
  const HoconValue* value = config.find(kCountKey);
  if (value->is_bool()) return *config.get_bool(kCountKey) ? DeadLetterLogSettings::kUnlimited : 0;
  if (value->is_string()) {
    const std::string text = *config.get_string(kCountKey);
    if (text == "off") return 0;
    if (text == "on") return DeadLetterLogSettings::kUnlimited;
    throw OptionsError(kFamily, "log-dead-letters", text, "must be an integer >= 0, on or off");
  }
  const double n = *config.get_number(kCountKey);  // ConfigError for other types
  if (!std::isfinite(n) || n < 0 || std::floor(n) != n) {
    throw OptionsError(kFamily, "log-dead-letters", value->to_text(),
                       "must be an integer >= 0, on or off");
  }
  // More than a size_t counts is "every letter", never a truncated count.
  return n >= static_cast<double>(DeadLetterLogSettings::kUnlimited)
             ? DeadLetterLogSettings::kUnlimited
             : static_cast<std::size_t>(n);
}

}  // namespace

DeadLetterLogSettings DeadLetterLogSettings::from_config(const HoconConfig* config) {
  DeadLetterLogSettings settings;
  if (config == nullptr) return settings;
  if (config->has(kCountKey)) settings.log_first = read_count(*config);
  if (config->has(kIntervalKey)) {
    const std::int64_t ms = *config->get_duration_ms(kIntervalKey);
    if (ms <= 0) {
      throw OptionsError(kFamily, "log-dead-letters-summary-interval",
                         config->find(kIntervalKey)->to_text(), "must be a duration > 0");
    }
    settings.summary_interval_ms = ms;
  }
  return settings;
}

}  // namespace mailroom
