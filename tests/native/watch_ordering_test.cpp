// Akka's death-watch ordering on many threads: a watcher receives every message
// the watched actor sent it before stopping, and Terminated after them (never
// before, never twice), whichever worker threads the two actors run on.
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/system_messages.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::LambdaActor;

struct Seq {
  int n;
};

struct Outcome {
  int seen_before_terminated = -1;
  int terminated = 0;
  int out_of_order = 0;
};

// The child sends kMessages numbered messages to its parent, then stops itself.
TEST(WatchOrdering, TerminatedComesAfterEveryMessageTheWatchedActorSent) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kMessages = 2000;
  constexpr int kRounds = 20;
  auto system =
      ActorSystem::create("watch", ActorSystemOptions()
                                       .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(4))
                                       .with_log_sink([](const LogEvent&) {}));
  for (int round = 0; round < kRounds; ++round) {
    auto outcome = std::make_shared<Outcome>();
    auto seen = std::make_shared<int>(0);
    auto done = std::make_shared<std::promise<void>>();
    auto child = testing::lambda_actor([](LambdaActor& self, const Message& m) {
      if (testing::text(m) != "go") return;
      const ActorRef parent = self.ctx().parent();
      for (int i = 0; i < kMessages; ++i) parent.tell(Seq{i}, self.me());
      self.ctx().stop(self.me());
    });
    system->spawn(testing::lambda_actor(
                      [=](LambdaActor&, const Message& m) {
                        if (m.is<Terminated>()) {
                          if (++outcome->terminated == 1) {
                            outcome->seen_before_terminated = *seen;
                            done->set_value();
                          }
                          return;
                        }
                        if (const auto* s = m.get_if<Seq>()) {
                          if (s->n != *seen) ++outcome->out_of_order;
                          ++*seen;
                        }
                      },
                      [child](LambdaActor& self) {
                        ActorRef kid = self.ctx().spawn(child, "child");
                        self.ctx().watch(kid);
                        kid.tell("go"s);
                      }),
                  "watcher-" + std::to_string(round));
    ASSERT_EQ(done->get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
    EXPECT_EQ(outcome->seen_before_terminated, kMessages) << "round " << round;
    EXPECT_EQ(outcome->out_of_order, 0) << "round " << round;
  }
  system->terminate();
  system->await_termination();
}

}  // namespace
}  // namespace mailroom
