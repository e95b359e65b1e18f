#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/system_messages.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// Logs messages; a Terminated is logged as "terminated <path>".
ActorFactory watcher_of(ActorRef target, std::shared_ptr<EventLog> log,
                        std::shared_ptr<Completion> hold = nullptr) {
  return testing::lambda_actor(
      [log, hold](LambdaActor& self, const Message& m) {
        if (auto t = m.get_if<Terminated>()) {
          log->add("terminated " + t->actor.local_path());
          return;
        }
        log->add(testing::text(m));
        if (hold && testing::text(m) == "hold") *hold = self.ctx().defer();
      },
      [target](LambdaActor& self) { self.ctx().watch(target); });
}

// A watcher gets Terminated{ref} once the watched actor has stopped.
TEST(Watch, WatcherReceivesTerminatedWhenTheWatchedActorStops) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto target = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "target");
  t.system->spawn(watcher_of(target, log), "watcher");
  t.run();
  target.stop();
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"terminated /user/target"}));
}

// Watching an actor that is already dead delivers Terminated at once.
TEST(Watch, WatchingADeadActorDeliversTerminatedAtOnce) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto target = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "target");
  target.stop();
  t.run();
  t.system->spawn(watcher_of(target, log), "watcher");
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"terminated /user/target"}));
}

// After unwatch no Terminated arrives.
TEST(Watch, UnwatchPreventsTheTerminated) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto target = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "target");
  auto watcher = t.system->spawn(testing::lambda_actor(
                                     [log, target](LambdaActor& self, const Message& m) {
                                       if (m.is<Terminated>()) log->add("terminated");
                                       if (testing::text(m) == "unwatch")
                                         self.ctx().unwatch(target);
                                     },
                                     [target](LambdaActor& self) { self.ctx().watch(target); }),
                                 "watcher");
  t.run();
  watcher.tell("unwatch"s);
  t.run();
  target.stop();
  t.run();
  EXPECT_TRUE(log->entries().empty());
}

// Terminated goes through the signal path: a full drop-new mailbox still takes it.
TEST(Watch, TerminatedArrivesThroughAFullBoundedMailbox) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto hold = std::make_shared<Completion>();
  auto target = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "target");
  auto watcher =
      t.system->spawn(watcher_of(target, log, hold), "watcher",
                      ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow("drop-new"));
  t.run();
  watcher.tell("hold"s);  // the watcher defers: it takes no further message
  t.run();
  watcher.tell("x"s);  // fills the mailbox
  watcher.tell("y"s);  // dropped (drop-new)
  target.stop();
  t.run();
  hold->complete();
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"hold", "x", "terminated /user/target"}));
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 1u);  // the target is gone
  EXPECT_EQ(rows[0].dropped, 1u);
}

// A watcher that throws on its Terminated fails (supervision) and the
// notification becomes a dead letter.
TEST(Watch, AWatcherThrowingOnTerminatedFailsAndDeadLettersIt) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto target = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "target");
  auto first = std::make_shared<bool>(true);
  t.system->spawn(testing::lambda_actor(
                      [](LambdaActor&, const Message& m) {
                        if (m.is<Terminated>()) throw std::runtime_error("cannot cope");
                      },
                      [target, log, first](LambdaActor& self) {
                        log->add("pre_start");
                        // Only the first incarnation watches (a restarted one
                        // re-watching the dead target would fail again).
                        if (*first) self.ctx().watch(target);
                        *first = false;
                      }),
                  "watcher");
  t.run();
  target.stop();
  t.run();
  auto letters = t.sink->letters();
  ASSERT_EQ(letters.size(), 1u);
  ASSERT_TRUE(letters[0].message.is<Terminated>());
  EXPECT_EQ(letters[0].message.get<Terminated>().actor, target);
  EXPECT_EQ(letters[0].recipient_path, "/user/watcher");
  // Default supervision restarted the watcher.
  EXPECT_EQ(log->entries(), (Strings{"pre_start", "pre_start"}));
}

}  // namespace
}  // namespace mailroom
