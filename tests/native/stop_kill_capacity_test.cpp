// stop() and kill() under a capacity: never shed, never MailboxFullError, and
// still behind every message sent before them (drain, then stop) — in a
// bounded FIFO under every policy and in a priority mailbox whatever the rank.
#include <gtest/gtest.h>

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/system_messages.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// Logs each message, and "stopped" from post_stop (also run before a restart).
ActorFactory logging(std::shared_ptr<EventLog> log) {
  return testing::lambda_actor(
      [log](LambdaActor&, const Message& m) { log->add(testing::text(m)); }, {},
      [log](LambdaActor&) { log->add("stopped"); });
}

class FullBoundedMailbox : public ::testing::TestWithParam<const char*> {};

TEST_P(FullBoundedMailbox, StopIsNeitherShedNorRejectedAndDrainsFirst) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(
      logging(log), "a", ActorOptions().with_mailbox_capacity(2).with_mailbox_overflow(GetParam()));
  ref.tell("1"s);
  ref.tell("2"s);  // full
  EXPECT_NO_THROW(ref.stop());
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"1", "2", "stopped"}));
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_TRUE(t.sink->letters().empty());
}

TEST_P(FullBoundedMailbox, KillIsNeitherShedNorRejectedAndDrainsFirst) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(
      logging(log), "a", ActorOptions().with_mailbox_capacity(2).with_mailbox_overflow(GetParam()));
  ref.tell("1"s);
  ref.tell("2"s);
  EXPECT_NO_THROW(ref.kill());
  t.run();
  // The Kill took effect after both (an ActorKilledError stops by default).
  EXPECT_EQ(log->entries(), (Strings{"1", "2", "stopped"}));
  EXPECT_TRUE(ref.is_terminated());
}

// A later arrival under drop-head evicts an ordinary message, never the PoisonPill.
TEST(FullBoundedMailboxDropHead, ArrivalsAfterStopNeverEvictIt) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref =
      t.system->spawn(logging(log), "a",
                      ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow("drop-head"));
  ref.stop();
  for (int i = 0; i < 5; ++i) ref.tell(std::to_string(i));
  t.run();
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(log->entries().back(), "stopped");
}

INSTANTIATE_TEST_SUITE_P(EveryPolicy, FullBoundedMailbox,
                         ::testing::Values("drop-head", "drop-new", "reject"));

const std::map<std::string, double> kRanks = {
    {"first", -std::numeric_limits<double>::infinity()},
    {"zero", 0},
    {"huge", 1e300},
    {"unrankable", std::numeric_limits<double>::quiet_NaN()},
    {"last", std::numeric_limits<double>::infinity()},
};

// PoisonPill and Kill are not strings: get<> throws, so they are unrankable.
double rank(const Envelope& e) {
  return kRanks.at(e.message.get<std::string>());
}

ActorOptions priority_options(std::optional<double> capacity = {}) {
  return ActorOptions().with_mailbox([capacity] {
    auto options = PriorityMailboxOptions::create().with_priority_for(rank);
    if (capacity) options.with_capacity(*capacity).with_overflow(OverflowPolicy::kReject);
    return std::make_shared<PriorityMailbox>(std::move(options));
  });
}

TEST(PriorityStop, DeliversEveryMessageQueuedBeforeItWhateverItsRank) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(logging(log), "a", priority_options());
  // 1e300 and +infinity rank behind UNRANKABLE_PRIORITY and the PoisonPill.
  for (auto m : {"last"s, "huge"s, "unrankable"s, "zero"s, "first"s}) ref.tell(m);
  ref.stop();
  ref.tell("first"s);  // after the stop: not delivered, whatever its rank
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"first", "zero", "unrankable", "huge", "last", "stopped"}));
  EXPECT_EQ(t.dead_texts(), (Strings{"first"}));
}

TEST(PriorityStop, AFullRejectingPriorityMailboxStillTakesStopAndKill) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(logging(log), "a", priority_options(2));
  ref.tell("last"s);
  ref.tell("huge"s);
  EXPECT_THROW(ref.tell("zero"s), MailboxFullError);
  EXPECT_NO_THROW(ref.kill());
  EXPECT_NO_THROW(ref.stop());
  t.run();
  // The Kill stops the actor after both queued messages.
  EXPECT_EQ(log->entries(), (Strings{"huge", "last", "stopped"}));
  EXPECT_TRUE(ref.is_terminated());
}

// The queue itself: a control envelope closes an epoch.
Envelope env(const char* text) {
  return Envelope{Message(std::string(text)), {}, {}, 0};
}
Strings drain_texts(PriorityMailbox& box) {
  Strings out;
  while (auto e = box.dequeue()) out.push_back(testing::text(e->message));
  return out;
}

TEST(PriorityMailboxControl, SplitsTheQueueIntoBeforeAndAfter) {
  PriorityMailbox box(PriorityMailboxOptions::create().with_priority_for(rank));
  box.enqueue(env("last"));
  box.enqueue(env("zero"));
  box.enqueue_control(Envelope{PoisonPill{}, {}, {}, 0});
  box.enqueue(env("first"));
  box.enqueue(env("huge"));
  EXPECT_EQ(box.size(), 5u);
  EXPECT_EQ(drain_texts(box), (Strings{"zero", "last", "mailroom::PoisonPill", "first", "huge"}));
}

TEST(PriorityMailboxControl, UnstashedMessagesRejoinTheEpochBeforeAPendingStop) {
  PriorityMailbox box(PriorityMailboxOptions::create().with_priority_for(rank));
  box.enqueue(env("zero"));
  box.enqueue_control(Envelope{PoisonPill{}, {}, {}, 0});
  box.enqueue(env("first"));
  std::vector<Envelope> stash;
  stash.push_back(env("last"));
  box.prepend(std::move(stash));
  EXPECT_EQ(drain_texts(box), (Strings{"zero", "last", "mailroom::PoisonPill", "first"}));
}

}  // namespace
}  // namespace mailroom
