#include <gtest/gtest.h>

#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/system_messages.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

ActorFactory hooked(std::shared_ptr<EventLog> log, std::string name) {
  return testing::lambda_actor(
      [log, name](LambdaActor&, const Message& m) { log->add(name + ":" + testing::text(m)); },
      [log, name](LambdaActor&) { log->add(name + ":pre_start"); },
      [log, name](LambdaActor&) { log->add(name + ":post_stop"); });
}

// stop() is a user message: what was queued before it is processed, the rest is dead-lettered.
TEST(ActorLifecycle, StopDrainsWhatWasQueuedBeforeIt) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(hooked(log, "a"), "a");
  ref.tell("m1"s);
  ref.tell("m2"s);
  ref.stop();
  ref.tell("m3"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"a:pre_start", "a:m1", "a:m2", "a:post_stop"}));
  EXPECT_TRUE(ref.is_terminated());
  ASSERT_EQ(t.sink->letters().size(), 1u);
  EXPECT_EQ(testing::text(t.sink->letters()[0].message), "m3");
  EXPECT_EQ(t.sink->letters()[0].recipient_path, "/user/a");
}

// A tell to a stopped actor becomes a dead letter naming it and the sender.
TEST(ActorLifecycle, TellToAStoppedActorIsADeadLetter) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(hooked(log, "a"), "a");
  auto other = t.system->spawn(hooked(log, "b"), "b");
  t.system->stop(ref);
  t.run();
  ref.tell("late"s, other);
  auto letters = t.sink->letters();
  ASSERT_EQ(letters.size(), 1u);
  EXPECT_EQ(testing::text(letters[0].message), "late");
  EXPECT_EQ(letters[0].recipient, ref);
  EXPECT_EQ(letters[0].recipient_path, "/user/a");
  EXPECT_EQ(letters[0].sender_path, "/user/b");
}

// Stopping a parent stops its children first: their post_stop runs before the parent's.
TEST(ActorLifecycle, StoppingAParentStopsItsChildrenFirst) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto parent =
      t.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {},
                                            [log](LambdaActor& self) {
                                              self.ctx().spawn(hooked(log, "c1"), "c1");
                                              self.ctx().spawn(hooked(log, "c2"), "c2");
                                            },
                                            [log](LambdaActor&) { log->add("parent:post_stop"); }),
                      "parent");
  t.run();
  log->clear();
  parent.stop();
  t.run();
  auto entries = log->entries();
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries.back(), "parent:post_stop");
  EXPECT_TRUE(parent.is_terminated());
  EXPECT_EQ(t.system->resolve("/user/parent/c1"), std::nullopt);
}

// Kill fails the actor with ActorKilledError; the default decider stops it.
TEST(ActorLifecycle, KillStopsTheActorThroughSupervision) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(hooked(log, "a"), "a");
  ref.tell("m1"s);
  ref.kill();
  ref.tell("m2"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"a:pre_start", "a:m1", "a:post_stop"}));
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(t.dead_texts(), (Strings{"m2"}));
}

// unhandled(message) makes it a dead letter with recipient self and the current sender.
TEST(ActorLifecycle, UnhandledMessageBecomesADeadLetter) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto sender = t.system->spawn(hooked(log, "s"), "s");
  auto picky = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                                 if (!m.is<int>()) self.drop(m);
                               }),
                               "picky");
  picky.tell(1);
  picky.tell("nope"s, sender);
  t.run();
  auto letters = t.sink->letters();
  ASSERT_EQ(letters.size(), 1u);
  EXPECT_EQ(testing::text(letters[0].message), "nope");
  EXPECT_EQ(letters[0].recipient, picky);
  EXPECT_EQ(letters[0].sender, sender);
  EXPECT_EQ(letters[0].sender_path, "/user/s");
}

// A selection that resolves to nothing dead-letters to a ghost ref carrying the path.
TEST(ActorLifecycle, SelectionToNothingDeadLettersWithTheGhostPath) {
  ManualSystem t("shop");
  t.system->actor_selection("/user/missing/child").tell("hello"s);
  auto letters = t.sink->letters();
  ASSERT_EQ(letters.size(), 1u);
  EXPECT_EQ(letters[0].recipient_path, "/user/missing/child");
  EXPECT_EQ(letters[0].recipient.path(), "mailroom://shop/user/missing/child");
  EXPECT_TRUE(letters[0].recipient.is_terminated());
  // The ghost dead-letters every tell too.
  letters[0].recipient.tell("again"s);
  EXPECT_EQ(t.dead_texts(), (Strings{"hello", "again"}));
}

// A selection that resolves delivers to the live actor.
TEST(ActorLifecycle, SelectionToALiveActorDelivers) {
  ManualSystem t("shop");
  auto log = std::make_shared<EventLog>();
  t.system->spawn(testing::recorder(log), "a");
  t.system->actor_selection("mailroom://shop/user/a").tell("hi"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"hi"}));
  EXPECT_TRUE(t.sink->letters().empty());
}

// The sink captures a letter before any event-stream subscriber sees it.
TEST(ActorLifecycle, DeadLetterSinkSeesLettersBeforeEventStreamSubscribers) {
  ManualSystem t;
  auto order = std::make_shared<EventLog>();
  t.sink->on_capture = [order](const DeadLetter& l) {
    order->add("sink " + testing::text(l.message));
  };
  t.system->event_stream().subscribe<DeadLetter>(std::function<void(const DeadLetter&)>(
      [order](const DeadLetter& l) { order->add("stream " + testing::text(l.message)); }));
  t.system->actor_selection("/user/none").tell("x"s);
  EXPECT_EQ(order->entries(), (Strings{"sink x", "stream x"}));
}

// A dead letter whose message is itself a DeadLetter is dropped: no loops.
TEST(ActorLifecycle, DeadLetterOfADeadLetterIsDropped) {
  ManualSystem t;
  DeadLetter inner;
  inner.message = "x"s;
  DeadLetter outer;
  outer.message = Message(inner);
  t.system->publish_dead_letter(std::move(outer));
  EXPECT_TRUE(t.sink->letters().empty());
}

// Stop dead-letters the stash first, then the queued user messages, each in arrival order.
TEST(ActorLifecycle, StopDeadLettersTheStashThenTheQueue) {
  ManualSystem t;
  auto ref = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                               if (testing::text(m).rfind("s", 0) == 0) self.ctx().stash();
                               if (testing::text(m) == "halt") self.ctx().stop(self.me());
                             }),
                             "a");
  ref.tell("s1"s);
  ref.tell("s2"s);
  t.run();
  // PoisonPill is a user message: q1, q2 queued behind it stay unprocessed.
  ref.tell("halt"s);
  t.dispatcher->step();  // halt -> PoisonPill queued after it
  ref.tell("q1"s);
  ref.tell("q2"s);
  t.run();
  EXPECT_EQ(t.dead_texts(), (Strings{"s1", "s2", "q1", "q2"}));
}

// Actors run their pre_start before their first message, through the dispatcher.
TEST(ActorLifecycle, PreStartRunsOnTheDispatcherBeforeTheFirstMessage) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(hooked(log, "a"), "a");
  ref.tell("m"s);
  EXPECT_TRUE(log->entries().empty());
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"a:pre_start", "a:m"}));
}

}  // namespace
}  // namespace mailroom
