// Opt-in dead-letter logging with storm suppression (mailroom.log-dead-letters).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mailroom/dead_letter_logger.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

DeadLetter letter(std::string recipient, std::string sender = "") {
  DeadLetter out;
  out.message = Message(42);
  out.recipient_path = std::move(recipient);
  out.sender_path = std::move(sender);
  return out;
}

DeadLetterLogger logger(std::size_t first, std::int64_t interval_ms = 10000) {
  DeadLetterLogSettings s;
  s.log_first = first;
  s.summary_interval_ms = interval_ms;
  return DeadLetterLogger(s);
}

// Logging is off by default: no lines at all.
TEST(DeadLetterLogger, OffByDefault) {
  DeadLetterLogger log(DeadLetterLogSettings::from_config(nullptr));
  EXPECT_TRUE(log.on_letter(letter("/user/a"), 0).empty());
  EXPECT_FALSE(log.on_tick(1000000).has_value());
}

// The first N letters are logged one line each, naming type, sender and recipient.
TEST(DeadLetterLogger, FirstLettersAreLoggedIndividually) {
  auto log = logger(2);
  EXPECT_EQ(
      log.on_letter(letter("/user/a", "/user/b"), 0),
      (std::vector<std::string>{"dead letter: int from /user/b to /user/a was not delivered"}));
  EXPECT_EQ(
      log.on_letter(letter("/user/c"), 1),
      (std::vector<std::string>{"dead letter: int from no sender to /user/c was not delivered"}));
  EXPECT_TRUE(log.on_letter(letter("/user/d"), 2).empty());
}

// After N, letters are counted and one summary per interval reports how many were suppressed.
TEST(DeadLetterLogger, StormIsSummarisedOncePerInterval) {
  auto log = logger(1, 10000);
  log.on_letter(letter("/user/a"), 0);
  std::vector<std::string> lines;
  for (std::int64_t t = 1000; t <= 25000; t += 1000) {  // 25 suppressed letters
    for (auto& line : log.on_letter(letter("/user/a"), t)) lines.push_back(line);
  }
  EXPECT_EQ(lines, (std::vector<std::string>{"suppressed 11 dead letters in the last 10s",
                                             "suppressed 11 dead letters in the last 10s"}));
  EXPECT_FALSE(log.on_tick(30000).has_value());  // window opened at 23000
  EXPECT_EQ(log.on_tick(33500),
            std::optional<std::string>("suppressed 3 dead letters in the last 10500ms"));
  EXPECT_FALSE(log.on_tick(50000).has_value());
}

// The HOCON keys set the count and the interval; on/off are accepted.
TEST(DeadLetterLogger, SettingsComeFromHocon) {
  auto config = HoconConfig::parse(
      "mailroom { log-dead-letters = 5, log-dead-letters-summary-interval = 30s }");
  auto s = DeadLetterLogSettings::from_config(&config);
  EXPECT_EQ(s.log_first, 5u);
  EXPECT_EQ(s.summary_interval_ms, 30000);
  config = HoconConfig::parse("mailroom.log-dead-letters = off");
  EXPECT_EQ(DeadLetterLogSettings::from_config(&config).log_first, 0u);
  config = HoconConfig::parse("mailroom.log-dead-letters = on");
  EXPECT_EQ(DeadLetterLogSettings::from_config(&config).log_first,
            DeadLetterLogSettings::kUnlimited);
  EXPECT_EQ(DeadLetterLogSettings::from_config(&config).summary_interval_ms, 10000);
}

// Bad values are named errors.
TEST(DeadLetterLogger, InvalidSettingsAreNamedErrors) {
  for (const char* text : {"mailroom.log-dead-letters = -1", "mailroom.log-dead-letters = loud",
                           "mailroom.log-dead-letters-summary-interval = 0s"}) {
    const auto config = HoconConfig::parse(text);
    EXPECT_THROW(DeadLetterLogSettings::from_config(&config), OptionsError) << text;
  }
}

}  // namespace
}  // namespace mailroom
