// Opt-in dead-letter logging (SPEC §4 "logs the first N letters and then a
// periodic summary"): the letters suppressed after the first N are always
// accounted for. A burst that ends before the summary interval has passed
// gives no summary on the publish path, so shutdown reports the quiet tail —
// otherwise the suppressed letters of the last burst were never mentioned.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_logger.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;

struct LoggingSystem {
  explicit LoggingSystem(const std::string& config)
      : dispatcher(std::make_shared<ManualDispatcher>()),
        clock(std::make_shared<std::atomic<std::int64_t>>(1000)),
        log(std::make_shared<EventLog>()) {
    auto c = clock;
    auto l = log;
    auto options = ActorSystemOptions::create().with_config(config);
    options.with_dispatcher(dispatcher)
        .with_clock([c] { return c->load(); })
        .with_log_sink([l](const LogEvent& e) { l->add(e.message); });
    system = ActorSystem::create("orders", std::move(options));
  }
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<std::atomic<std::int64_t>> clock;
  std::shared_ptr<EventLog> log;
  std::shared_ptr<ActorSystem> system;
};

std::size_t count_containing(const std::vector<std::string>& lines, const std::string& text) {
  std::size_t n = 0;
  for (const auto& line : lines) n += line.find(text) != std::string::npos;
  return n;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

// 2 logged, 3 suppressed, no letter after them: terminate reports the 3.
TEST(DeadLetterLogTail, TerminateReportsTheLettersSuppressedSinceTheLastSummary) {
  LoggingSystem t(
      "mailroom.log-dead-letters = 2\nmailroom.log-dead-letters-summary-interval = 10s");
  for (int i = 0; i < 5; ++i) t.system->actor_selection("/user/x").tell(std::to_string(i));
  t.clock->fetch_add(1500);
  EXPECT_EQ(count_containing(t.log->entries(), "dead letter: "), 2u);
  EXPECT_EQ(count_containing(t.log->entries(), "suppressed"), 0u);
  t.system->terminate();
  t.dispatcher->run_until_idle();
  ASSERT_TRUE(t.system->is_terminated());
  EXPECT_EQ(count_containing(t.log->entries(), "suppressed 3 dead letters in the last 1500ms"), 1u)
      << joined(t.log->entries());
}

// Nothing suppressed since the last summary: terminate adds no summary line.
TEST(DeadLetterLogTail, TerminateAddsNoSummaryWhenNothingIsPending) {
  LoggingSystem t(
      "mailroom.log-dead-letters = 2\nmailroom.log-dead-letters-summary-interval = 10s");
  for (int i = 0; i < 4; ++i) t.system->actor_selection("/user/x").tell(std::to_string(i));
  t.clock->fetch_add(10000);
  t.system->actor_selection("/user/x").tell("late"s);
  ASSERT_EQ(count_containing(t.log->entries(), "suppressed 3 dead letters"), 1u);
  t.system->terminate();
  t.dispatcher->run_until_idle();
  ASSERT_TRUE(t.system->is_terminated());
  EXPECT_EQ(count_containing(t.log->entries(), "suppressed"), 1u) << joined(t.log->entries());
}

// The logger's own flush: the pending summary whatever the interval, once.
TEST(DeadLetterLogTail, FlushGivesThePendingSummaryOnce) {
  DeadLetterLogSettings settings;
  settings.log_first = 1;
  settings.summary_interval_ms = 10000;
  DeadLetterLogger logger(settings);
  DeadLetter letter;
  letter.recipient_path = "/user/x";
  EXPECT_EQ(logger.on_letter(letter, 0).size(), 1u);
  EXPECT_TRUE(logger.on_letter(letter, 100).empty());
  EXPECT_TRUE(logger.on_letter(letter, 200).empty());
  EXPECT_EQ(logger.flush(700), "suppressed 2 dead letters in the last 600ms");
  EXPECT_EQ(logger.flush(800), std::nullopt);
}

}  // namespace
}  // namespace mailroom
