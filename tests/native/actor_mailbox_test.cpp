// ActorMailbox: the system queue, suspension and close(sink), the same over
// every user queue (the split of issue 12: queues implement only the user side).
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/mailbox.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

using Strings = std::vector<std::string>;

Envelope env(std::string text) {
  return Envelope{Message(std::move(text)), {}, {}, 0};
}
std::string text_of(const Envelope& e) {
  return e.message.get<std::string>();
}

struct QueueKind {
  const char* name;
  std::function<std::shared_ptr<MessageQueue>()> make;
};

class EveryQueue : public ::testing::TestWithParam<QueueKind> {
 protected:
  ActorMailbox box{GetParam().make()};
};

// System messages are taken before any user message, whatever arrived first,
// and a capacity never bounds them.
TEST_P(EveryQueue, SystemMessagesComeFirstAndAreNotBounded) {
  box.enqueue(env("u1"));
  box.enqueue_system(env("s1"));
  box.enqueue_system(env("s2"));
  EXPECT_EQ(box.system_size(), 2u);
  EXPECT_TRUE(box.has_system_messages());
  EXPECT_EQ(text_of(*box.dequeue_system()), "s1");
  EXPECT_EQ(text_of(*box.dequeue_system()), "s2");
  EXPECT_FALSE(box.dequeue_system().has_value());
  EXPECT_EQ(text_of(*box.dequeue_user()), "u1");
  EXPECT_FALSE(box.has_messages());
}

// Suspended: dequeue_user and has_messages hold the user messages back (as JS
// dequeueUser()/hasMessages() do); system messages and drain_user do not wait.
TEST_P(EveryQueue, SuspensionGatesUserMessagesOnly) {
  box.enqueue(env("u1"));
  box.suspend();
  EXPECT_TRUE(box.suspended());
  EXPECT_FALSE(box.dequeue_user().has_value());
  EXPECT_FALSE(box.has_messages());
  EXPECT_TRUE(box.has_user_messages());
  EXPECT_EQ(box.size(), 1u);
  box.enqueue_system(env("s1"));
  EXPECT_TRUE(box.has_messages());
  EXPECT_EQ(text_of(*box.dequeue_system()), "s1");
  box.resume();
  EXPECT_TRUE(box.has_messages());
  EXPECT_EQ(text_of(*box.dequeue_user()), "u1");
}

TEST_P(EveryQueue, DrainUserTakesEverythingEvenWhenSuspended) {
  box.enqueue(env("a"));
  box.enqueue(env("b"));
  box.suspend();
  auto drained = box.drain_user();
  ASSERT_EQ(drained.size(), 2u);
  EXPECT_EQ(text_of(drained[0]), "a");
  EXPECT_EQ(box.size(), 0u);
}

// close(sink): leftovers go to the sink, and so does every later user
// message, signal and stop; system messages stay for the actor to answer.
TEST_P(EveryQueue, CloseHandsLeftoversAndLaterArrivalsToTheSink) {
  Strings sunk;
  box.enqueue(env("left"));
  box.enqueue_system(env("watch"));
  box.close([&](Envelope e) { sunk.push_back(text_of(e)); });
  EXPECT_TRUE(box.closed());
  EXPECT_EQ(sunk, (Strings{"left"}));
  box.enqueue(env("late"));
  box.enqueue_signal(env("signal"));
  box.enqueue_control(env("stop"));
  EXPECT_EQ(sunk, (Strings{"left", "late", "signal", "stop"}));
  EXPECT_EQ(box.size(), 0u);
  EXPECT_EQ(text_of(*box.dequeue_system()), "watch");
  // A second close keeps the first sink and hands over what slipped in.
  box.queue().enqueue(env("straggler"));
  box.close([](Envelope) { FAIL() << "the first sink stays"; });
  EXPECT_EQ(sunk.back(), "straggler");
}

TEST_P(EveryQueue, DescribesItsQueue) {
  EXPECT_EQ(box.describe().kind, GetParam().name);
}

INSTANTIATE_TEST_SUITE_P(
    Queues, EveryQueue,
    ::testing::Values(QueueKind{"unbounded", [] { return std::make_shared<UnboundedMailbox>(); }},
                      QueueKind{
                          "bounded",
                          [] {
                            return std::make_shared<BoundedMailbox>(
                                BoundedMailboxOptions::create().with_capacity(2).with_overflow(
                                    OverflowPolicy::kReject));
                          }},
                      QueueKind{"priority",
                                [] {
                                  return std::make_shared<PriorityMailbox>(
                                      PriorityMailboxOptions::create()
                                          .with_priority_for([](const Envelope&) { return 1.0; })
                                          .with_capacity(2)
                                          .with_overflow(OverflowPolicy::kReject));
                                }}),
    [](const ::testing::TestParamInfo<QueueKind>& info) { return std::string(info.param.name); });

TEST(ActorMailbox, NeedsAQueue) {
  EXPECT_THROW(ActorMailbox(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace mailroom
