#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;

// A system name must be non-empty and only letters, digits, '-' and '_'.
TEST(ActorSystem, CreateRejectsInvalidSystemNames) {
  for (std::string bad : {""s, "a b"s, "a/b"s, "ü"s, "a.b"s}) {
    try {
      ActorSystem::create(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const OptionsError& e) {
      EXPECT_EQ(e.family(), "ActorSystem");
      EXPECT_EQ(e.field(), "name");
      EXPECT_EQ(e.value(), bad);
    }
  }
}

// Top-level actors live under /user, children below their parent.
TEST(ActorSystem, PathsPrintWithSchemeSystemAndGuardian) {
  ManualSystem t("orders");
  ActorRef child;
  auto parent = t.system->spawn(
      testing::lambda_actor([](LambdaActor&, const Message&) {},
                            [&child](LambdaActor& self) {
                              child = self.ctx().spawn(
                                  testing::lambda_actor([](LambdaActor&, const Message&) {}),
                                  "worker");
                            }),
      "checkout");
  t.run();
  EXPECT_EQ(parent.path(), "mailroom://orders/user/checkout");
  EXPECT_EQ(parent.local_path(), "/user/checkout");
  ASSERT_TRUE(child.valid());
  EXPECT_EQ(child.path(), "mailroom://orders/user/checkout/worker");
  EXPECT_EQ(child.local_path(), "/user/checkout/worker");
  EXPECT_NE(parent.uid(), child.uid());
}

// Two live siblings cannot share a name; the error names the path.
TEST(ActorSystem, DuplicateLiveSiblingNameIsRejected) {
  ManualSystem t;
  t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a");
  try {
    t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a");
    FAIL() << "duplicate accepted";
  } catch (const InvalidActorNameError& e) {
    EXPECT_NE(std::string(e.what()).find("/user/a"), std::string::npos) << e.what();
  }
}

// Empty, '/', whitespace, leading '$', "." / ".." and names over 255 characters are refused.
TEST(ActorSystem, InvalidActorNamesAreRejected) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  for (std::string bad :
       {""s, "a/b"s, "a b"s, "tab\t"s, "$a"s, "."s, ".."s, std::string(256, 'x')}) {
    EXPECT_THROW(t.system->spawn(testing::recorder(log), bad), InvalidActorNameError) << bad;
  }
  EXPECT_NO_THROW(t.system->spawn(testing::recorder(log), std::string(255, 'x')));
  EXPECT_NO_THROW(t.system->spawn(testing::recorder(log), "a$b-c_d.e"));
}

// Once an actor is fully stopped its name can be used again (a new incarnation).
TEST(ActorSystem, NameIsFreeAgainOnceTheActorIsFullyStopped) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto first = t.system->spawn(testing::recorder(log), "a");
  first.stop();
  t.run();
  ASSERT_TRUE(first.is_terminated());
  auto second = t.system->spawn(testing::recorder(log), "a");
  EXPECT_NE(first.uid(), second.uid());
  EXPECT_EQ(second.local_path(), "/user/a");
  EXPECT_FALSE(second.is_terminated());
}

// tell never runs the receiver on the caller's stack; messages arrive in order.
TEST(ActorSystem, TellQueuesAndTheDispatcherDeliversInOrder) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::recorder(log), "r");
  ref.tell("a"s);
  ref.tell("b"s);
  ref.tell("c"s);
  EXPECT_TRUE(log->entries().empty());
  t.run();
  EXPECT_EQ(log->entries(), (std::vector<std::string>{"a", "b", "c"}));
}

// resolve finds live actors by local or full path, and nothing for unknown paths.
TEST(ActorSystem, ResolveFindsLiveActorsByLocalOrFullPath) {
  ManualSystem t("shop");
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "cart");
  EXPECT_EQ(t.system->resolve("/user/cart"), ref);
  EXPECT_EQ(t.system->resolve("mailroom://shop/user/cart"), ref);
  EXPECT_EQ(t.system->resolve("mailroom://other/user/cart"), std::nullopt);
  EXPECT_EQ(t.system->resolve("/user/nope"), std::nullopt);
  EXPECT_TRUE(t.system->resolve("/user").has_value());
}

// The sender given to tell is the sender the receiver sees.
TEST(ActorSystem, ReceiverSeesTheSenderGivenToTell) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto sender = t.system->spawn(testing::recorder(log, "sender got "), "sender");
  auto echo = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                                self.from().tell("echo " + testing::text(m), self.me());
                              }),
                              "echo");
  echo.tell("hi"s, sender);
  t.run();
  EXPECT_EQ(log->entries(), (std::vector<std::string>{"sender got echo hi"}));
}

// The replay target resolves only /user actors and delivers with the recorded sender.
TEST(ActorSystem, ReplayTargetResolvesOnlyUserActors) {
  ManualSystem t("shop");
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::recorder(log), "a");
  ReplayTarget& target = t.system->replay_target();
  EXPECT_EQ(target.resolve_user_actor("/user/a"), ref);
  EXPECT_EQ(target.resolve_user_actor("mailroom://shop/user/a"), ref);
  EXPECT_EQ(target.resolve_user_actor("akka://shop/user/a"), ref);
  for (const char* bad : {"", "/", "/user", "/system", "mailroom://x/user/a", "/user/b"}) {
    EXPECT_EQ(target.resolve_user_actor(bad), std::nullopt) << bad;
  }
  EXPECT_EQ(target.local_path("mailroom://shop/user/a/"), "/user/a");
  target.deliver(ref, Envelope{"replayed"s, {}, {}, 7});
  t.run();
  EXPECT_EQ(log->entries(), (std::vector<std::string>{"replayed"}));
}

// A parent (with a child: the tree holds parent <-> child references) whose
// turn drops the last handle to its own system. cells_alive expires when every
// cell of the tree is freed.
struct DestroyedInsideATurn {
  std::shared_ptr<EventLog> log = std::make_shared<EventLog>();
  std::weak_ptr<int> cells_alive;
  std::shared_ptr<ActorSystem> system;

  void start(std::shared_ptr<Dispatcher> dispatcher) {
    auto token = std::make_shared<int>(0);  // held by every cell's factory
    cells_alive = token;
    system = ActorSystem::create("inturn", ActorSystemOptions::create()
                                               .with_dispatcher(std::move(dispatcher))
                                               .with_log_sink([](const LogEvent&) {}));
    auto log = this->log;
    std::shared_ptr<ActorSystem>* holder = &system;
    auto child = testing::lambda_actor([token](LambdaActor&, const Message&) {}, {},
                                       [log](LambdaActor&) { log->add("child stopped"); });
    system
        ->spawn(testing::lambda_actor(
                    [holder, token](LambdaActor&, const Message&) { holder->reset(); },
                    [child](LambdaActor& self) { self.ctx().spawn(child, "child"); },
                    [log](LambdaActor&) { log->add("parent stopped"); }),
                "parent")
        .tell(1);
  }
};

// On a manual dispatcher: the tree still stops on the dispatcher after the
// facade is gone (post_stop runs, child first) and then nothing of it is left.
TEST(ActorSystem, DestroyedInsideAnActorsTurnStopsAndFreesTheTree) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  DestroyedInsideATurn t;
  t.start(dispatcher);
  dispatcher->run_until_idle();
  EXPECT_EQ(t.system, nullptr);
  EXPECT_EQ(t.log->entries(), (std::vector<std::string>{"child stopped", "parent stopped"}));
  EXPECT_TRUE(t.cells_alive.expired()) << "the tree leaked (parent <-> child cycle)";
  EXPECT_EQ(dispatcher->pending(), 0u);
}

// On a thread pool nobody else holds: the pool's worker destroys the system;
// the tree stops and is freed, and the pool is shut down off its own workers.
TEST(ActorSystem, DestroyedInsideAThreadPoolTurnStopsAndFreesTheTree) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  DestroyedInsideATurn t;
  t.start(std::make_shared<ThreadPoolDispatcher>(2));
  // An eventual condition, not a timing: generous for the sanitizer lanes.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!t.cells_alive.expired() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_TRUE(t.cells_alive.expired()) << "the tree leaked (parent <-> child cycle)";
  EXPECT_EQ(t.log->entries(), (std::vector<std::string>{"child stopped", "parent stopped"}));
}

}  // namespace
}  // namespace mailroom
