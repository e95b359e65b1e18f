// The stash holds the message being handled at most once (as Akka refuses "stash
// the same message twice"), and the message being handled includes the one a
// deferred (async) receive still holds: stash() after the receive returned but
// before its completion parks that message, as unstash_all() already works then.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/completion.hpp"
#include "mailroom/deferred_start.hpp"
#include "mailroom/errors.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// A second stash() of the same message is an IllegalStateError: the stash keeps
// one copy, so unstash_all() delivers the message once, not twice.
TEST(StashOnce, StashingTheSameMessageTwiceIsAnIllegalStateError) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto deliveries = std::make_shared<int>(0);
  auto ref =
      t.system->spawn(testing::lambda_actor([log, deliveries](LambdaActor& self, const Message& m) {
                        const auto text = testing::text(m);
                        if (text == "open") {
                          self.ctx().unstash_all();
                          return;
                        }
                        log->add("got " + text);
                        if (++*deliveries > 1) return;
                        self.ctx().stash();
                        try {
                          self.ctx().stash();
                          log->add("stashed twice");
                        } catch (const IllegalStateError&) {
                          log->add("second stash refused");
                        }
                      }),
                      "a");
  ref.tell("x"s);
  t.run();
  EXPECT_EQ(t.system->inspect().at(0).stash_size, 1u);
  ref.tell("open"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"got x", "second stash refused", "got x"}));
}

// Each message may be stashed once: the next message is stashable again.
TEST(StashOnce, EveryNewMessageCanBeStashedAgain) {
  ManualSystem t;
  auto ref = t.system->spawn(
      testing::lambda_actor([](LambdaActor& self, const Message&) { self.ctx().stash(); }), "a");
  for (auto m : {"1"s, "2"s, "3"s}) ref.tell(m);
  t.run();
  EXPECT_EQ(t.system->inspect().at(0).stash_size, 3u);
}

// An async receive still holds its message after receive returned: stash()
// before the completion parks it (once), and unstash_all() brings it back.
TEST(StashOnce, StashDuringADeferredReceiveParksTheHeldMessage) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto pending = std::make_shared<Completion>();
  auto actor = std::make_shared<LambdaActor*>(nullptr);
  auto ref = t.system->spawn(
      testing::lambda_actor([log, pending, actor](LambdaActor& self, const Message& m) {
        *actor = &self;
        const auto text = testing::text(m);
        log->add("got " + text);
        if (text == "slow" && self.ctx().stash_size() == 0) *pending = self.ctx().defer();
        if (text == "open") self.ctx().unstash_all();
      }),
      "a");
  ref.tell("slow"s);
  ref.tell("next"s);
  t.run();
  ASSERT_NE(*actor, nullptr);
  ASSERT_FALSE(pending->done());
  // The continuation of the async receive (in JS: code after an await).
  (*actor)->ctx().stash();
  EXPECT_THROW((*actor)->ctx().stash(), IllegalStateError);
  EXPECT_EQ((*actor)->ctx().stash_size(), 1u);
  pending->complete();
  t.run();
  ref.tell("open"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"got slow", "got next", "got open", "got slow"}));
}

// An async pre_start holds no message: stash() then is still an IllegalStateError.
TEST(StashOnce, StashDuringADeferredStartIsAnIllegalStateError) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto actor = std::make_shared<LambdaActor*>(nullptr);
  auto start = std::make_shared<Completion>();
  t.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {},
                                        [actor, start](LambdaActor& self) {
                                          *actor = &self;
                                          *start = defer_start(self.ctx());
                                        }),
                  "a");
  t.run();
  ASSERT_NE(*actor, nullptr);
  EXPECT_THROW((*actor)->ctx().stash(), IllegalStateError);
  start->complete();
  t.run();
}

}  // namespace
}  // namespace mailroom
