#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// Phases run in order; the tree goes down inside actor-system-terminate, before
// after-actor-system-terminate; when_terminated comes last.
TEST(CoordinatedShutdown, PhasesRunInOrderAroundTheTreeGoingDown) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  for (ShutdownPhase phase : kShutdownPhases) {
    const std::string name(to_string(phase));
    t.system->coordinated_shutdown().add_task(name, "log", [log, name] { log->add(name); });
  }
  t.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {}, {},
                                        [log](LambdaActor&) { log->add("actor stopped"); }),
                  "a");
  t.system->spawn_system_actor(
      testing::lambda_actor([](LambdaActor&, const Message&) {}, {},
                            [log](LambdaActor&) { log->add("system actor stopped"); }),
      "s");
  t.system->when_terminated([log] { log->add("terminated"); });
  t.run();
  t.system->terminate();
  t.system->await_termination();
  EXPECT_EQ(
      log->entries(),
      (Strings{"before-service-unbind", "service-unbind", "service-requests-done", "service-stop",
               "before-actor-system-terminate", "actor-system-terminate", "actor stopped",
               "system actor stopped", "after-actor-system-terminate", "terminated"}));
  EXPECT_TRUE(t.system->is_terminated());
}

// An unknown phase or a duplicate task name is an OptionsError.
TEST(CoordinatedShutdown, UnknownPhaseAndDuplicateTaskAreOptionsErrors) {
  ManualSystem t;
  auto& shutdown = t.system->coordinated_shutdown();
  try {
    shutdown.add_task("before-lunch", "x", [] {});
    FAIL();
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "CoordinatedShutdown");
    EXPECT_EQ(e.field(), "phase");
    EXPECT_EQ(e.value(), "before-lunch");
  }
  shutdown.add_task(ShutdownPhase::kServiceStop, "x", [] {});
  EXPECT_THROW(shutdown.add_task("service-stop", "x", [] {}), OptionsError);
}

// terminate() is idempotent and a throwing task does not stop the shutdown.
TEST(CoordinatedShutdown, TerminateIsIdempotentAndSurvivesAThrowingTask) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto& shutdown = t.system->coordinated_shutdown();
  shutdown.add_task(ShutdownPhase::kServiceStop, "bad", [] { throw std::runtime_error("no"); });
  shutdown.add_task(ShutdownPhase::kServiceStop, "good", [log] { log->add("good"); });
  t.system->terminate();
  t.system->terminate();
  t.system->await_termination();
  EXPECT_EQ(log->entries(), (Strings{"good"}));
}

// Messages still queued at termination, and tells afterwards, become dead letters;
// spawning is refused.
TEST(CoordinatedShutdown, AfterTerminationTellsAreDeadLettersAndSpawnIsRefused) {
  ManualSystem t;
  auto hold = std::make_shared<Completion>();
  auto ref = t.system->spawn(testing::lambda_actor([hold](LambdaActor& self, const Message&) {
                               *hold = self.ctx().defer();  // never completed
                             }),
                             "a");
  ref.tell("hold"s);
  t.run();
  ref.tell("queued"s);
  t.system->terminate();
  t.system->await_termination();
  ref.tell("late"s);
  EXPECT_EQ(t.dead_texts(), (Strings{"queued", "late"}));
  EXPECT_THROW(t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "b"),
               IllegalStateError);
  bool ran = false;
  t.system->when_terminated([&] { ran = true; });
  EXPECT_TRUE(ran);
}

}  // namespace
}  // namespace mailroom
