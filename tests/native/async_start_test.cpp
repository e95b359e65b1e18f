#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/actor_initialization_error.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/deferred_start.hpp"
#include "mailroom/errors.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// What the test controls and observes across a Starter's incarnations.
struct StartScript {
  EventLog log;
  std::vector<Completion> starts;  // every deferred start, in order
  Completion held;                 // a deferred receive ("hold")
  bool defer = true;               // pre_start defers its start
  bool complete_at_once = false;   // ... and completes it inside pre_start
  bool throw_after_defer = false;  // ... and then throws
};

// Logs its hooks and messages; pre_start (also reached through the default
// post_restart) defers its start as the script says.
class Starter : public Actor {
 public:
  explicit Starter(std::shared_ptr<StartScript> script) : s_(std::move(script)) {}

  void pre_start() override {
    s_->log.add("pre_start");
    if (!s_->defer) return;
    s_->starts.push_back(defer_start(context()));
    if (s_->complete_at_once) s_->starts.back().complete();
    if (s_->throw_after_defer) throw std::runtime_error("broken start");
  }
  void post_stop() override { s_->log.add("post_stop"); }
  void pre_restart(std::exception_ptr, const Message* message) override {
    s_->log.add("pre_restart(" + (message ? testing::text(*message) : "-"s) + ")");
  }
  void receive(const Message& m) override {
    const std::string text = testing::text(m);
    if (text == "boom") {
      s_->defer = true;  // the next start (post_restart → pre_start) is asynchronous
      throw std::runtime_error("boom");
    }
    if (text == "defer-here") {
      try {
        defer_start(context());
      } catch (const IllegalStateError&) {
        s_->log.add("illegal");
      }
      return;
    }
    if (text == "hold") s_->held = context().defer();
    s_->log.add(text);
  }

 private:
  std::shared_ptr<StartScript> s_;
};

ActorFactory starter(std::shared_ptr<StartScript> script) {
  return [script] { return std::make_unique<Starter>(script); };
}

// "init:<cause>" for an ActorInitializationError, else "other".
std::string describe_failure(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const ActorInitializationError& e) {
    try {
      std::rethrow_exception(e.cause());
    } catch (const std::exception& cause) {
      return "init:"s + cause.what();
    }
  } catch (...) {
  }
  return "other";
}

// User messages wait until the deferred start completes, then run in order.
TEST(AsyncStart, UserMessagesWaitUntilTheStartCompletes) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("one"s);
  ref.tell("two"s);
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start"}));
  ASSERT_EQ(s->starts.size(), 1u);
  s->starts[0].complete();
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "one", "two"}));
}

// A start completed inside pre_start itself holds nothing back.
TEST(AsyncStart, ACompletionCompletedInsideTheHookReleasesAtOnce) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  s->complete_at_once = true;
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("one"s);
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "one"}));
}

// System messages still run while the start is pending: the actor can be
// stopped, and what was queued becomes dead letters; the late completion is stale.
TEST(AsyncStart, SystemMessagesStillRunWhileTheStartIsPending) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("queued"s);
  t.run();
  t.system->terminate();
  t.run();
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "post_stop"}));
  EXPECT_EQ(t.dead_texts(), (Strings{"queued"}));
  s->starts[0].complete();
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "post_stop"}));
}

// A failed start reaches the supervisor as ActorInitializationError(cause);
// the restart's pre_restart gets no message and the queued message survives.
TEST(AsyncStart, AFailedStartIsAnInitializationFailureWithoutAMessage) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  auto seen = std::make_shared<EventLog>();
  SupervisorStrategy restart([seen](std::exception_ptr e) {
    seen->add(describe_failure(e));
    return Directive::kRestart;
  });
  auto ref = t.system->spawn(starter(s), "a", ActorOptions().with_supervisor_strategy(restart));
  ref.tell("queued"s);
  t.run();
  s->defer = false;  // the restarted instance starts synchronously
  s->starts[0].fail(std::make_exception_ptr(std::runtime_error("db down")));
  t.run();
  EXPECT_EQ(seen->entries(), (Strings{"init:db down"}));
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "pre_restart(-)", "pre_start", "queued"}));
}

// The default decider stops an actor whose start failed, as for a throwing pre_start.
TEST(AsyncStart, TheDefaultDeciderStopsAnActorWhoseStartFailed) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("queued"s);
  t.run();
  s->starts[0].fail(std::make_exception_ptr(std::runtime_error("db down")));
  t.run();
  EXPECT_TRUE(ref.is_terminated());
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "post_stop"}));
  EXPECT_EQ(t.dead_texts(), (Strings{"queued"}));
}

// post_restart (by default pre_start) may defer too: after a restart the
// mailbox waits for the new instance's start.
TEST(AsyncStart, PostRestartMayDeferTheRestartedInstance) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  s->defer = false;
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("boom"s);
  ref.tell("after"s);
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "pre_restart(boom)", "pre_start"}));
  ASSERT_EQ(s->starts.size(), 1u);
  s->starts[0].complete();
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "pre_restart(boom)", "pre_start", "after"}));
}

// defer_start outside pre_start / post_restart is an IllegalStateError.
TEST(AsyncStart, DeferStartOutsideTheStartHooksIsAnIllegalStateError) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  s->defer = false;
  auto ref = t.system->spawn(starter(s), "a");
  ref.tell("defer-here"s);
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "illegal"}));
}

// A start that deferred and then threw leaves a stale completion behind: it
// never releases a later deferred receive.
TEST(AsyncStart, AStaleStartCompletionNeverReleasesALaterDeferredReceive) {
  ManualSystem t;
  auto s = std::make_shared<StartScript>();
  s->throw_after_defer = true;
  auto ref = t.system->spawn(
      starter(s), "a", ActorOptions().with_supervisor_strategy(SupervisorStrategy::resuming()));
  ref.tell("hold"s);
  ref.tell("after"s);
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "hold"}));
  s->starts[0].complete();  // stale: the start already failed
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "hold"}));
  s->held.complete();
  t.run();
  EXPECT_EQ(s->log.entries(), (Strings{"pre_start", "hold", "after"}));
}

}  // namespace
}  // namespace mailroom
