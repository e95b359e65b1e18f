#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/host_driven_dispatcher.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

// ManualDispatcher::step processes one message and sends the actor to the back.
TEST(Dispatcher, ManualStepProcessesOneMessageThenRotates) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto a = t.system->spawn(testing::recorder(log), "a");
  auto b = t.system->spawn(testing::recorder(log), "b");
  t.run();
  a.tell("a1"s);
  a.tell("a2"s);
  b.tell("b1"s);
  b.tell("b2"s);
  EXPECT_EQ(t.dispatcher->pending(), 2u);
  EXPECT_TRUE(t.dispatcher->step());
  EXPECT_EQ(log->entries(), (Strings{"a1"}));
  EXPECT_EQ(t.dispatcher->run_until_idle(), 3u);
  EXPECT_EQ(log->entries(), (Strings{"a1", "b1", "a2", "b2"}));
  EXPECT_FALSE(t.dispatcher->step());
}

// After shutdown() a ManualDispatcher queues nothing, as the thread pool: a cell
// queued there would never run and would keep its system alive (core ->
// dispatcher -> queue -> cell -> core). A null cell stands in: it is never run.
TEST(Dispatcher, ManualScheduleAfterShutdownQueuesNothing) {
  ManualDispatcher dispatcher;
  dispatcher.shutdown();
  dispatcher.schedule(nullptr);
  ASSERT_EQ(dispatcher.pending(), 0u);
  EXPECT_FALSE(dispatcher.step());
  EXPECT_EQ(dispatcher.run_until_idle(), 0u);
}

// System messages run before user messages that were queued earlier.
TEST(Dispatcher, SystemMessagesRunBeforeQueuedUserMessages) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  SupervisorStrategy logging([log](std::exception_ptr) {
    log->add("decide");
    return Directive::kResume;
  });
  ActorRef child;
  auto parent = t.system->spawn(
      testing::lambda_actor([log](LambdaActor&, const Message& m) { log->add(testing::text(m)); },
                            [&child, logging](LambdaActor& self) {
                              child = self.ctx().spawn(
                                  testing::lambda_actor([](LambdaActor&, const Message&) {
                                    throw std::runtime_error("boom");
                                  }),
                                  "child", ActorOptions().with_supervisor_strategy(logging));
                            }),
      "parent");
  t.run();
  child.tell("boom"s);
  ASSERT_TRUE(t.dispatcher->step());  // the child fails: Failed is queued at the parent
  parent.tell("a"s);
  parent.tell("b"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"decide", "a", "b"}));
}

// A host-driven dispatcher takes at most `throughput` messages per actor turn.
TEST(Dispatcher, HostDrivenTurnsRespectThroughput) {
  auto host = std::make_shared<HostDrivenDispatcher>();
  auto system = ActorSystem::create(
      "host", ActorSystemOptions().with_dispatcher(host).with_log_sink([](const LogEvent&) {}));
  auto log = std::make_shared<EventLog>();
  auto a = system->spawn(testing::recorder(log), "a", ActorOptions().with_throughput(2));
  auto b = system->spawn(testing::recorder(log), "b", ActorOptions().with_throughput(2));
  host->drain();
  for (auto m : {"a1"s, "a2"s, "a3"s}) a.tell(m);
  for (auto m : {"b1"s, "b2"s, "b3"s}) b.tell(m);
  EXPECT_EQ(host->run_some(100), 6u);
  EXPECT_EQ(log->entries(), (Strings{"a1", "a2", "b1", "b2", "a3", "b3"}));
  EXPECT_FALSE(host->has_work());
  system->terminate();
  system->await_termination();
}

// A lone actor's turn runs on past its throughput while nobody else waits, but
// yields at the next throughput boundary once it has woken another actor:
// whoever it wakes runs exactly where a re-queued turn would have let it.
TEST(Dispatcher, HostDrivenLoneTurnYieldsOnceAnotherActorWaits) {
  auto host = std::make_shared<HostDrivenDispatcher>();
  auto system = ActorSystem::create(
      "host", ActorSystemOptions().with_dispatcher(host).with_log_sink([](const LogEvent&) {}));
  auto log = std::make_shared<EventLog>();
  auto b = system->spawn(testing::recorder(log), "b");
  auto a = system->spawn(testing::lambda_actor([log, b](testing::LambdaActor&, const Message& m) {
                           log->add(testing::text(m));
                           if (testing::text(m) == "a3") b.tell("b1"s);
                         }),
                         "a", ActorOptions().with_throughput(2));
  host->drain();
  for (auto m : {"a1"s, "a2"s, "a3"s, "a4"s, "a5"s, "a6"s, "a7"s}) a.tell(m);
  EXPECT_EQ(host->run_some(100), 8u);
  EXPECT_EQ(log->entries(), (Strings{"a1", "a2", "a3", "a4", "b1", "a5", "a6", "a7"}));
  // A budget still bounds a lone turn.
  for (auto m : {"c1"s, "c2"s, "c3"s, "c4"s, "c5"s}) a.tell(m);
  EXPECT_EQ(host->run_some(3), 3u);
  EXPECT_TRUE(host->has_work());
  EXPECT_EQ(host->run_some(100), 2u);
  system->terminate();
  system->await_termination();
}

// run_some(n) stops after n messages and leaves the rest for the next slice.
TEST(Dispatcher, HostDrivenRunSomeStopsAtItsBudget) {
  auto host = std::make_shared<HostDrivenDispatcher>();
  auto system = ActorSystem::create(
      "host", ActorSystemOptions().with_dispatcher(host).with_log_sink([](const LogEvent&) {}));
  auto log = std::make_shared<EventLog>();
  auto a = system->spawn(testing::recorder(log), "a");
  host->drain();
  for (int i = 0; i < 5; ++i) a.tell(std::to_string(i));
  EXPECT_EQ(host->run_some(3), 3u);
  EXPECT_TRUE(host->has_work());
  EXPECT_EQ(host->run_for(std::chrono::seconds(10)), 2u);
  EXPECT_EQ(log->entries(), (Strings{"0", "1", "2", "3", "4"}));
}

// The wake callback fires once when work appears while idle, not per message.
TEST(Dispatcher, HostDrivenWakesTheHostOncePerIdlePeriod) {
  auto host = std::make_shared<HostDrivenDispatcher>();
  int wakes = 0;
  host->set_wake([&] { ++wakes; });
  auto system = ActorSystem::create(
      "host", ActorSystemOptions().with_dispatcher(host).with_log_sink([](const LogEvent&) {}));
  auto a = system->spawn(testing::recorder(std::make_shared<EventLog>()), "a");
  a.tell(1);
  a.tell(2);
  EXPECT_EQ(wakes, 1);
  host->run_some(100);
  EXPECT_FALSE(host->has_work());
  a.tell(3);
  EXPECT_EQ(wakes, 2);
  host->drain();
}

// After shutdown() a HostDrivenDispatcher refuses schedule() as the other
// dispatchers do: nothing is queued, the host is not woken, the slices run
// nothing, and the refused cell is not retained (a queued cell would keep its
// system alive through core -> dispatcher -> queue -> cell -> core). The cell is
// an aliasing pointer that shares `owner`'s count, so retention shows in it.
TEST(Dispatcher, HostDrivenScheduleAfterShutdownQueuesNothingAndKeepsNothing) {
  HostDrivenDispatcher host;
  int wakes = 0;
  host.set_wake([&] { ++wakes; });
  host.shutdown();
  auto owner = std::make_shared<int>(0);
  std::shared_ptr<detail::ActorCell> cell(owner, static_cast<detail::ActorCell*>(nullptr));
  host.schedule(cell);
  host.schedule(std::move(cell));
  EXPECT_EQ(owner.use_count(), 1);
  EXPECT_FALSE(host.has_work());
  EXPECT_EQ(wakes, 0);
  EXPECT_EQ(host.run_some(10), 0u);
  EXPECT_EQ(host.run_for(std::chrono::milliseconds(1)), 0u);
  EXPECT_EQ(host.drain(), 0u);
  host.shutdown();  // idempotent
  EXPECT_FALSE(host.has_work());
}

// shutdown() releases the cells still queued (their messages stay in their
// mailboxes, under the dead-letter rules of their actors).
TEST(Dispatcher, HostDrivenShutdownReleasesQueuedCells) {
  HostDrivenDispatcher host;
  auto owner = std::make_shared<int>(0);
  host.schedule(
      std::shared_ptr<detail::ActorCell>(owner, static_cast<detail::ActorCell*>(nullptr)));
  EXPECT_EQ(owner.use_count(), 2);
  EXPECT_TRUE(host.has_work());
  host.shutdown();
  EXPECT_EQ(owner.use_count(), 1);
  EXPECT_FALSE(host.has_work());
}

}  // namespace
}  // namespace mailroom
