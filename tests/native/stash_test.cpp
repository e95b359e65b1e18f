#include <gtest/gtest.h>

#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// Stashes until "open", then unstashes and logs everything.
ActorFactory gate(std::shared_ptr<EventLog> log) {
  auto open = std::make_shared<bool>(false);
  return testing::lambda_actor([log, open](LambdaActor& self, const Message& m) {
    const auto text = testing::text(m);
    if (!*open) {
      if (text == "open") {
        *open = true;
        self.ctx().unstash_all();
        return;
      }
      self.ctx().stash();
      return;
    }
    log->add(text);
  });
}

// unstash_all puts the stash back at the front, in its original order.
TEST(Stash, UnstashAllRestoresOriginalOrderAheadOfQueuedMessages) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(gate(log), "gate");
  for (auto m : {"a"s, "b"s, "c"s, "open"s, "d"s}) ref.tell(m);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"a", "b", "c", "d"}));
}

// stash outside receive (here: in pre_start) is an IllegalStateError.
TEST(Stash, StashOutsideReceiveIsAnIllegalStateError) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  t.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {},
                                        [log](LambdaActor& self) {
                                          try {
                                            self.ctx().stash();
                                          } catch (const IllegalStateError&) {
                                            log->add("illegal");
                                          }
                                        }),
                  "a");
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"illegal"}));
}

// The 1025th stash throws StashOverflowError; the first 1024 are kept.
TEST(Stash, StashBeyond1024IsAStashOverflowError) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::lambda_actor([log](LambdaActor& self, const Message&) {
                               try {
                                 self.ctx().stash();
                               } catch (const StashOverflowError&) {
                                 log->add("overflow at " + std::to_string(self.ctx().stash_size()));
                               }
                             }),
                             "a");
  for (int i = 0; i < 1025; ++i) ref.tell(i);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"overflow at 1024"}));
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].stash_size, 1024u);
}

// On a bounded reject mailbox without room, unstash_all throws and keeps the stash.
TEST(Stash, UnstashIntoAFullRejectMailboxKeepsTheStash) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(
      testing::lambda_actor([log](LambdaActor& self, const Message& m) {
        const auto text = testing::text(m);
        if (text == "open") {
          try {
            self.ctx().unstash_all();
            log->add("unstashed");
          } catch (const MailboxFullError& e) {
            log->add("full " + e.path() + " stash=" + std::to_string(self.ctx().stash_size()));
          }
          return;
        }
        if (text.rfind("s", 0) == 0) {
          self.ctx().stash();
          return;
        }
        log->add(text);
      }),
      "a", ActorOptions().with_mailbox_capacity(2).with_mailbox_overflow(OverflowPolicy::kReject));
  ref.tell("s1"s);
  ref.tell("s2"s);
  t.run();
  ref.tell("open"s);
  ref.tell("x"s);
  t.dispatcher->step();  // open: the mailbox still holds x, so 2 more do not fit
  ref.tell("y"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"full /user/a stash=2", "x", "y"}));
}

// become replaces the behaviour; unbecome returns to receive().
TEST(Stash, BecomeSwitchesBehaviourAndUnbecomeReturns) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::lambda_actor([log](LambdaActor& self, const Message& m) {
                               log->add("normal " + testing::text(m));
                               if (testing::text(m) == "angry") {
                                 self.ctx().become([log, &self](const Message& n) {
                                   log->add("angry " + testing::text(n));
                                   if (testing::text(n) == "calm") self.ctx().unbecome();
                                 });
                               }
                             }),
                             "a");
  for (auto m : {"hi"s, "angry"s, "hi"s, "calm"s, "hi"s}) ref.tell(m);
  t.run();
  EXPECT_EQ(log->entries(),
            (Strings{"normal hi", "normal angry", "angry hi", "angry calm", "normal hi"}));
}

// An async receive holds back the next user message until it completes.
TEST(Stash, DeferredReceiveHoldsTheActorUntilComplete) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto pending = std::make_shared<Completion>();
  auto ref =
      t.system->spawn(testing::lambda_actor([log, pending](LambdaActor& self, const Message& m) {
                        log->add(testing::text(m));
                        if (testing::text(m) == "slow") *pending = self.ctx().defer();
                      }),
                      "a");
  ref.tell("slow"s);
  ref.tell("next"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"slow"}));
  EXPECT_FALSE(pending->done());
  pending->complete();
  pending->complete();  // once only
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"slow", "next"}));
}

}  // namespace
}  // namespace mailroom
