#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mailroom/actor_initialization_error.hpp"
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

// Logs every hook with its incarnation number; throws on "boom".
class Fragile : public Actor {
 public:
  Fragile(std::shared_ptr<EventLog> log, std::shared_ptr<int> incarnations)
      : log_(std::move(log)), n_(++*incarnations) {}
  void pre_start() override { add("pre_start"); }
  void post_stop() override { add("post_stop"); }
  void pre_restart(std::exception_ptr reason, const Message* message) override {
    add("pre_restart(" + (message ? testing::text(*message) : "-"s) + ")");
    Actor::pre_restart(reason, message);
  }
  void post_restart(std::exception_ptr reason) override {
    add("post_restart");
    Actor::post_restart(reason);
  }
  void receive(const Message& m) override {
    const std::string text = testing::text(m);
    if (text == "boom") throw std::runtime_error("boom");
    if (text == "count") {
      ++count_;
      add("count=" + std::to_string(count_));
      return;
    }
    add(text);
  }

 private:
  void add(const std::string& what) { log_->add(what + "#" + std::to_string(n_)); }
  std::shared_ptr<EventLog> log_;
  int n_;
  int count_ = 0;
};

struct Fixture {
  std::shared_ptr<EventLog> log = std::make_shared<EventLog>();
  std::shared_ptr<int> incarnations = std::make_shared<int>(0);
  ActorFactory fragile() {
    auto l = log;
    auto n = incarnations;
    return [l, n] { return std::make_unique<Fragile>(l, n); };
  }
};

// A parent spawning one Fragile child with a given strategy.
ActorFactory parent_with(ActorFactory child, SupervisorStrategy strategy,
                         std::shared_ptr<ActorRef> out) {
  return [child, strategy, out] {
    return std::make_unique<LambdaActor>(
        [](LambdaActor&, const Message&) {},
        [child, strategy, out](LambdaActor& self) {
          *out =
              self.ctx().spawn(child, "child", ActorOptions().with_supervisor_strategy(strategy));
        });
  };
}

// Restart: pre_restart(message) on the old instance (post_stop by default), then
// a new instance's post_restart (pre_start by default); queued messages survive.
TEST(Supervision, RestartRunsTheHooksInOrderAndKeepsQueuedMessages) {
  ManualSystem t;
  Fixture f;
  auto ref = t.system->spawn(f.fragile(), "f");
  ref.tell("a"s);
  ref.tell("boom"s);
  ref.tell("b"s);
  ref.tell("c"s);
  t.run();
  EXPECT_EQ(f.log->entries(), (Strings{"pre_start#1", "a#1", "pre_restart(boom)#1", "post_stop#1",
                                       "post_restart#2", "pre_start#2", "b#2", "c#2"}));
  EXPECT_TRUE(t.sink->letters().empty());
}

// Resume keeps the instance and its state and continues with the next message.
TEST(Supervision, ResumeKeepsStateAndContinues) {
  ManualSystem t;
  Fixture f;
  auto child = std::make_shared<ActorRef>();
  t.system->spawn(parent_with(f.fragile(), SupervisorStrategy::resuming(), child), "p");
  t.run();
  child->tell("count"s);
  child->tell("boom"s);
  child->tell("count"s);
  t.run();
  EXPECT_EQ(f.log->entries(), (Strings{"pre_start#1", "count=1#1", "count=2#1"}));
}

// Stop ends the child; what it still had queued becomes dead letters.
TEST(Supervision, StopDirectiveStopsTheChild) {
  ManualSystem t;
  Fixture f;
  auto child = std::make_shared<ActorRef>();
  t.system->spawn(parent_with(f.fragile(), SupervisorStrategy::stopping(), child), "p");
  t.run();
  child->tell("boom"s);
  child->tell("after"s);
  t.run();
  EXPECT_EQ(f.log->entries(), (Strings{"pre_start#1", "post_stop#1"}));
  EXPECT_TRUE(child->is_terminated());
  EXPECT_EQ(t.dead_texts(), (Strings{"after"}));
}

// Escalate: the parent fails with the same error and its own supervisor decides
// (default: restart the parent, which stops and re-creates its children).
TEST(Supervision, EscalateFailsTheParentWithTheSameError) {
  ManualSystem t;
  Fixture f;
  auto seen = std::make_shared<EventLog>();
  auto child = std::make_shared<ActorRef>();
  auto middle = parent_with(f.fragile(), SupervisorStrategy::escalating(), child);
  SupervisorStrategy top([seen](std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::runtime_error& err) {
      seen->add(err.what());
    }
    return Directive::kRestart;
  });
  t.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {},
                                        [middle, top](LambdaActor& self) {
                                          self.ctx().spawn(
                                              middle, "middle",
                                              ActorOptions().with_supervisor_strategy(top));
                                        }),
                  "top");
  t.run();
  child->tell("boom"s);
  t.run();
  EXPECT_EQ(seen->entries(), (Strings{"boom"}));
  // The middle actor restarted: its old child was stopped and a new one created.
  EXPECT_EQ(f.log->entries(), (Strings{"pre_start#1", "post_stop#1", "pre_start#2"}));
  EXPECT_TRUE(t.system->resolve("/user/top/middle/child").has_value());
}

// More restarts than max_retries within the window stop the child.
TEST(Supervision, ExhaustingMaxRetriesStopsTheChild) {
  ManualSystem t;
  Fixture f;
  auto child = std::make_shared<ActorRef>();
  SupervisorStrategy budget(SupervisorStrategy::default_decider(), 2, 60000);
  t.system->spawn(parent_with(f.fragile(), budget, child), "p");
  t.run();
  for (int i = 0; i < 3; ++i) child->tell("boom"s);
  t.run();
  EXPECT_TRUE(child->is_terminated());
  EXPECT_EQ(*f.incarnations, 3);  // the first and two restarts
}

// The default strategy restarts at most 10 times a minute, then stops.
TEST(Supervision, DefaultStrategyStopsAfterTenRestartsWithinAMinute) {
  ManualSystem t;
  Fixture f;
  auto ref = t.system->spawn(f.fragile(), "f");
  for (int i = 0; i < 11; ++i) ref.tell("boom"s);
  t.run();
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(*f.incarnations, 11);
}

// A failure in pre_start goes to supervision as ActorInitializationError; the
// default decider stops the actor instead of restarting it forever.
TEST(Supervision, PreStartFailureIsAnInitializationErrorThatStops) {
  ManualSystem t;
  auto ref = t.system->spawn(
      testing::lambda_actor([](LambdaActor&, const Message&) {},
                            [](LambdaActor&) { throw std::runtime_error("no db"); }),
      "a");
  ref.tell("m"s);
  t.run();
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(t.dead_texts(), (Strings{"m"}));
}

// A custom decider sees the initialization error with its cause.
TEST(Supervision, DeciderSeesInitializationErrorWithItsCause) {
  ManualSystem t;
  auto seen = std::make_shared<EventLog>();
  SupervisorStrategy strategy([seen](std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const ActorInitializationError& err) {
      try {
        std::rethrow_exception(err.cause());
      } catch (const std::exception& cause) {
        seen->add(cause.what());
      }
    }
    return Directive::kStop;
  });
  auto child = std::make_shared<ActorRef>();
  t.system->spawn(
      parent_with(testing::lambda_actor([](LambdaActor&, const Message&) {},
                                        [](LambdaActor&) { throw std::runtime_error("no db"); }),
                  strategy, child),
      "p");
  t.run();
  EXPECT_EQ(seen->entries(), (Strings{"no db"}));
  EXPECT_TRUE(child->is_terminated());
}

// A restart dead-letters the stash (in arrival order); queued messages survive.
TEST(Supervision, RestartDeadLettersTheStash) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::lambda_actor([log](LambdaActor& self, const Message& m) {
                               const auto text = testing::text(m);
                               if (text == "boom") throw std::runtime_error("boom");
                               if (text.rfind("s", 0) == 0) {
                                 self.ctx().stash();
                                 return;
                               }
                               log->add(text);
                             }),
                             "a");
  for (auto m : {"s1"s, "s2"s, "boom"s, "q"s}) ref.tell(m);
  t.run();
  EXPECT_EQ(t.dead_texts(), (Strings{"s1", "s2"}));
  EXPECT_EQ(log->entries(), (Strings{"q"}));
}

// Reject at a full mailbox throws at the tell: inside an actor, the sender's
// supervisor sees MailboxFullError naming the recipient.
TEST(Supervision, MailboxFullErrorReachesTheSendersSupervisor) {
  ManualSystem t;
  auto seen = std::make_shared<EventLog>();
  SupervisorStrategy strategy([seen](std::exception_ptr e) {
    try {
      std::rethrow_exception(e);
    } catch (const MailboxFullError& err) {
      seen->add("full:" + err.path());
    } catch (...) {
      seen->add("other");
    }
    return Directive::kResume;
  });
  t.system->spawn(
      testing::lambda_actor(
          [](LambdaActor&, const Message&) {},
          [strategy](LambdaActor& self) {
            auto target = self.ctx().spawn(
                testing::lambda_actor([](LambdaActor&, const Message&) {}), "target",
                ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow("reject"));
            self.ctx().spawn(testing::lambda_actor([target](LambdaActor&, const Message&) {
                               target.tell("1"s);
                               target.tell("2"s);  // full: throws here
                             }),
                             "sender", ActorOptions().with_supervisor_strategy(strategy));
          }),
      "p", ActorOptions().with_supervisor_strategy(strategy));
  t.run();
  auto sender = t.system->resolve("/user/p/sender");
  ASSERT_TRUE(sender.has_value());
  sender->tell("go"s);
  t.run();
  EXPECT_EQ(seen->entries(), (Strings{"full:/user/p/target"}));
}

// Outside an actor the caller gets the MailboxFullError directly.
TEST(Supervision, MailboxFullErrorIsThrownAtTheCallSite) {
  ManualSystem t;
  auto ref = t.system->spawn(
      testing::lambda_actor([](LambdaActor&, const Message&) {}), "a",
      ActorOptions().with_mailbox_capacity(1).with_mailbox_overflow(OverflowPolicy::kReject));
  ref.tell("1"s);
  try {
    ref.tell("2"s);
    FAIL() << "no MailboxFullError";
  } catch (const MailboxFullError& e) {
    EXPECT_EQ(e.path(), "/user/a");
    EXPECT_EQ(e.capacity(), 1u);
  }
}

// A failure posted by a deferred receive goes to supervision like a throw.
TEST(Supervision, FailedCompletionGoesToSupervision) {
  ManualSystem t;
  Fixture f;
  auto pending = std::make_shared<Completion>();
  auto log = std::make_shared<EventLog>();
  auto ref =
      t.system->spawn(testing::lambda_actor([pending, log](LambdaActor& self, const Message& m) {
                        log->add(testing::text(m));
                        if (testing::text(m) == "async") *pending = self.ctx().defer();
                      }),
                      "a", ActorOptions());
  ref.tell("async"s);
  ref.tell("next"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"async"}));
  pending->fail(std::make_exception_ptr(std::runtime_error("later")));
  t.run();
  // Default: restart; the queued message survives and runs on the new instance.
  EXPECT_EQ(log->entries(), (Strings{"async", "next"}));
  EXPECT_FALSE(ref.is_terminated());
}

}  // namespace
}  // namespace mailroom
