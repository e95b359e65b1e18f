// A stop() or kill() that reaches an actor after it stopped is a dead letter
// like any tell to a stopped actor (seed 002), but replaying one never stops
// or fails the actor that lives at that path now: replay answers
// "control-message" and the entry stays (docs/dead-letters.md).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/system_messages.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;

struct ControlSystem {
  ControlSystem() : dispatcher(std::make_shared<ManualDispatcher>()) {
    auto options = ActorSystemOptions::create().with_dead_letters(
        DeadLetterQueueOptions::create().with_store("memory").with_max_replays(3));
    options.with_dispatcher(dispatcher).with_log_sink([](const LogEvent&) {});
    system = ActorSystem::create("control", std::move(options));
  }
  std::size_t run() { return dispatcher->run_until_idle(); }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }
  // A recording actor spawned at name and stopped, nothing captured yet.
  ActorRef stopped(const std::shared_ptr<testing::EventLog>& log, const std::string& name) {
    auto ref = system->spawn(testing::recorder(log), name);
    run();
    ref.stop();
    run();
    return ref;
  }

  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
};

// The captured stop()/kill() is listed, and replaying it — to its path or to a
// redirect — leaves the revived actor running and the entry in the queue.
TEST(DeadLetterControlReplay, CapturedStopAndKillDoNotStopTheRevivedActor) {
  for (const bool kill : {false, true}) {
    ControlSystem t;
    auto log = std::make_shared<testing::EventLog>();
    auto first = t.system->spawn(testing::recorder(log), "worker");
    t.run();
    // A second stop() (or a kill()) queued behind the first: the actor stops
    // at the first, and the one behind it is drained to the dead letters.
    first.stop();
    if (kill) {
      first.kill();
    } else {
      first.stop();
    }
    t.run();
    ASSERT_TRUE(first.is_terminated());
    const auto entries = t.queue().list();
    ASSERT_EQ(entries.size(), 1u) << "the late " << (kill ? "kill" : "stop") << " is captured";
    EXPECT_TRUE(std::get<DeadLetterEntry::Captured>(entries[0].payload).message.is<PoisonPill>() !=
                kill);
    const std::uint64_t id = entries[0].id;

    auto revived = t.system->spawn(testing::recorder(log), "worker");
    auto other = t.system->spawn(testing::recorder(log), "other");
    t.run();
    const ReplayResult same = t.queue().replay(id);
    EXPECT_EQ(same.outcome, ReplayOutcome::kControlMessage);
    EXPECT_EQ(to_string(same.outcome), "control-message");
    const ReplayResult redirected = t.queue().replay(id, "/user/other");
    EXPECT_EQ(redirected.outcome, ReplayOutcome::kControlMessage);
    EXPECT_EQ(t.queue().preview_replay(id).outcome, ReplayOutcome::kControlMessage);
    t.run();
    EXPECT_FALSE(revived.is_terminated());
    EXPECT_FALSE(other.is_terminated());
    revived.tell("still here"s);
    t.run();
    EXPECT_EQ(log->entries(), std::vector<std::string>{"still here"});
    ASSERT_EQ(t.queue().list().size(), 1u) << "nothing is lost: the entry stays";
    EXPECT_EQ(t.queue().list()[0].replay_count, 0u);
    EXPECT_EQ(t.queue().stats().replay_failed, 2u);  // two replays; a preview counts nothing
  }
}

// stop() and kill() on a ref whose actor has already terminated are tells to a
// stopped actor: each is a dead letter naming the actor (as from JS), never
// silently dropped.
TEST(DeadLetterControlReplay, StopAndKillAfterTerminationAreDeadLetters) {
  ControlSystem t;
  auto log = std::make_shared<testing::EventLog>();
  auto gone = t.stopped(log, "gone");
  ASSERT_TRUE(gone.is_terminated());
  ASSERT_TRUE(t.queue().list().empty());
  gone.stop();
  gone.kill();
  t.system->stop(gone);
  t.run();
  const auto entries = t.queue().list();
  ASSERT_EQ(entries.size(), 3u);
  std::size_t pills = 0, kills = 0;
  for (const DeadLetterEntry& entry : entries) {
    EXPECT_EQ(entry.recipient_path, gone.local_path());
    EXPECT_EQ(entry.cause, DeadLetterCause::kStopped);
    const Message& message = std::get<DeadLetterEntry::Captured>(entry.payload).message;
    pills += message.is<PoisonPill>() ? 1 : 0;
    kills += message.is<Kill>() ? 1 : 0;
  }
  EXPECT_EQ(pills, 2u);
  EXPECT_EQ(kills, 1u);
}

// An ordinary letter to the same stopped actor still replays into the revived one.
TEST(DeadLetterControlReplay, OrdinaryLettersStillReplay) {
  ControlSystem t;
  auto log = std::make_shared<testing::EventLog>();
  auto first = t.stopped(log, "worker");
  first.tell("late"s);
  t.run();
  const auto entries = t.queue().list();
  ASSERT_EQ(entries.size(), 1u);
  auto revived = t.system->spawn(testing::recorder(log), "worker");
  t.run();
  EXPECT_EQ(t.queue().replay(entries[0].id).outcome, ReplayOutcome::kReplayed);
  t.run();
  EXPECT_EQ(log->entries(), std::vector<std::string>{"late"});
}

}  // namespace
}  // namespace mailroom
