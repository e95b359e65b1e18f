// What reaches the log sink at each level: default info, with_log_level,
// HOCON mailroom.logger.level (unknown names fall back to info with a
// warning), kOff silencing the sink and the event stream, and the default
// console sink printing info lines (so examples that log at info print).
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/log_level_setting.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using testing::LambdaActor;

struct Logged {
  std::vector<std::string> sunk;       // "level message" as the sink saw them
  std::vector<std::string> published;  // LogEvents on the event stream
};

// A system whose one actor logs one line at each level, then reports what got through.
Logged log_each_level(ActorSystemOptions options) {
  auto logged = std::make_shared<Logged>();
  auto dispatcher = std::make_shared<ManualDispatcher>();
  options.with_dispatcher(dispatcher).with_log_sink([logged](const LogEvent& e) {
    logged->sunk.push_back(std::string(to_string(e.level)) + " " + e.message);
  });
  auto system = ActorSystem::create("logs", std::move(options));
  system->event_stream().subscribe<LogEvent>(std::function<void(const LogEvent&)>(
      [logged](const LogEvent& e) { logged->published.push_back(e.message); }));
  auto ref = system->spawn(testing::lambda_actor([](LambdaActor& self, const Message&) {
                             self.ctx().log().debug("d");
                             self.ctx().log().info("i");
                             self.ctx().log().warn("w");
                             self.ctx().log().error("e");
                           }),
                           "talker");
  ref.tell(1);
  dispatcher->run_until_idle();
  system->terminate();
  system->await_termination();
  return *logged;
}

using Lines = std::vector<std::string>;

// By default info, warn and error reach the sink; debug does not.
TEST(LogLevel, DefaultIsInfo) {
  EXPECT_EQ(log_each_level({}).sunk, (Lines{"info i", "warn w", "error e"}));
}

// Each level lets through itself and what is more severe.
TEST(LogLevel, WithLogLevelSetsTheThreshold) {
  EXPECT_EQ(log_each_level(ActorSystemOptions().with_log_level(LogLevel::kDebug)).sunk,
            (Lines{"debug d", "info i", "warn w", "error e"}));
  EXPECT_EQ(log_each_level(ActorSystemOptions().with_log_level(LogLevel::kWarn)).sunk,
            (Lines{"warn w", "error e"}));
  EXPECT_EQ(log_each_level(ActorSystemOptions().with_log_level(LogLevel::kError)).sunk,
            (Lines{"error e"}));
}

// Off silences the sink and the LogEvents on the event stream alike.
TEST(LogLevel, OffSilencesSinkAndEventStream) {
  const Logged logged = log_each_level(ActorSystemOptions().with_log_level("off"));
  EXPECT_TRUE(logged.sunk.empty());
  EXPECT_TRUE(logged.published.empty());
}

// The event stream carries what the sink gets, no more.
TEST(LogLevel, EventStreamSeesWhatPassesTheLevel) {
  EXPECT_EQ(log_each_level(ActorSystemOptions().with_log_level(LogLevel::kWarn)).published,
            (Lines{"w", "e"}));
}

// HOCON mailroom.logger.level sets the level; the explicit option wins over it.
TEST(LogLevel, HoconLevelAndPrecedence) {
  EXPECT_EQ(log_each_level(ActorSystemOptions().with_config("mailroom.logger.level = error")).sunk,
            (Lines{"error e"}));
  EXPECT_EQ(log_each_level(ActorSystemOptions()
                               .with_config("mailroom { logger { level = error } }")
                               .with_log_level(LogLevel::kDebug))
                .sunk,
            (Lines{"debug d", "info i", "warn w", "error e"}));
}

// An unknown HOCON level never stops the system: info, and a warning naming the key.
TEST(LogLevel, UnknownHoconLevelFallsBackToInfoWithAWarning) {
  const Logged logged =
      log_each_level(ActorSystemOptions().with_config("mailroom.logger.level = chatty"));
  ASSERT_EQ(logged.sunk.size(), 4u);
  EXPECT_NE(logged.sunk[0].find("warn mailroom.logger.level = chatty"), std::string::npos)
      << logged.sunk[0];
  EXPECT_EQ((Lines{logged.sunk.begin() + 1, logged.sunk.end()}),
            (Lines{"info i", "warn w", "error e"}));
  const LogLevelSetting number = LogLevelSetting::resolve(
      std::nullopt,
      std::make_unique<HoconConfig>(HoconConfig::parse("mailroom.logger.level = 3")).get());
  EXPECT_EQ(number.level, LogLevel::kInfo);
  EXPECT_FALSE(number.warning.empty());
}

// An unknown name given in code is a configuration error, not a fallback.
TEST(LogLevel, UnknownNameInCodeIsAnOptionsError) {
  try {
    ActorSystemOptions().with_log_level("verbose");
    FAIL() << "accepted";
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "ActorSystemOptions");
    EXPECT_EQ(e.field(), "logLevel");
    EXPECT_EQ(e.value(), "verbose");
  }
}

// The names round-trip, and the rule: a level passes when at least the threshold; off passes
// nothing.
TEST(LogLevel, NamesAndTheRule) {
  for (LogLevel l :
       {LogLevel::kDebug, LogLevel::kInfo, LogLevel::kWarn, LogLevel::kError, LogLevel::kOff}) {
    EXPECT_EQ(log_level_from_string(to_string(l)), l);
  }
  EXPECT_TRUE(log_level_passes(LogLevel::kInfo, LogLevel::kInfo));
  EXPECT_FALSE(log_level_passes(LogLevel::kDebug, LogLevel::kInfo));
  EXPECT_FALSE(log_level_passes(LogLevel::kError, LogLevel::kOff));
  EXPECT_FALSE(log_level_passes(LogLevel::kOff, LogLevel::kDebug));
}

// With no sink given, info goes to stdout and warn to stderr as "[level] source: message".
TEST(LogLevel, DefaultConsoleSinkPrintsInfo) {
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  {
    auto dispatcher = std::make_shared<ManualDispatcher>();
    auto system = ActorSystem::create("console", ActorSystemOptions().with_dispatcher(dispatcher));
    auto ref = system->spawn(testing::lambda_actor([](LambdaActor& self, const Message&) {
                               self.ctx().log().info("processed 1");
                               self.ctx().log().debug("hidden");
                               self.ctx().log().warn("careful");
                             }),
                             "worker");
    ref.tell(1);
    dispatcher->run_until_idle();
    system->terminate();
    system->await_termination();
  }
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  EXPECT_EQ(out.str(), "[info] /user/worker: processed 1\n");
  EXPECT_EQ(err.str(), "[warn] /user/worker: careful\n");
}

}  // namespace
}  // namespace mailroom
