#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/event_stream.hpp"
#include "mailroom/log_event.hpp"
#include "mailroom/mailbox_size_warning.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;
using Strings = std::vector<std::string>;

struct Ping {
  int n;
};

// A function subscriber gets only its type, in publish order.
TEST(EventStream, FunctionSubscribersReceiveOnlyTheirType) {
  EventStream stream;
  std::vector<int> seen;
  stream.subscribe<Ping>(
      std::function<void(const Ping&)>([&](const Ping& p) { seen.push_back(p.n); }));
  stream.publish(Ping{1});
  stream.publish("not a ping"s);
  stream.publish(Ping{2});
  EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

// unsubscribe by id removes exactly that subscription.
TEST(EventStream, UnsubscribeByIdRemovesThatSubscription) {
  EventStream stream;
  int a = 0, b = 0;
  auto id = stream.subscribe<Ping>(std::function<void(const Ping&)>([&](const Ping&) { ++a; }));
  stream.subscribe<Ping>(std::function<void(const Ping&)>([&](const Ping&) { ++b; }));
  EXPECT_EQ(stream.unsubscribe(id), 1u);
  EXPECT_EQ(stream.unsubscribe(id), 0u);
  stream.publish(Ping{1});
  EXPECT_EQ(a, 0);
  EXPECT_EQ(b, 1);
}

// An actor subscriber gets events by tell: nothing runs on the publisher's stack.
TEST(EventStream, ActorSubscribersReceiveByTell) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::lambda_actor([log](LambdaActor&, const Message& m) {
                               log->add("ping " + std::to_string(m.get<Ping>().n));
                             }),
                             "sub");
  t.run();
  t.system->event_stream().subscribe<Ping>(ref);
  t.system->event_stream().publish(Ping{7});
  EXPECT_TRUE(log->entries().empty());
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"ping 7"}));
}

// unsubscribe(ref, type) removes only that type; unsubscribe(ref) removes all.
TEST(EventStream, UnsubscribeByRefAndType) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::recorder(log), "sub");
  auto& stream = t.system->event_stream();
  stream.subscribe<Ping>(ref);
  stream.subscribe<std::string>(ref);
  EXPECT_EQ(stream.unsubscribe<Ping>(ref), 1u);
  stream.publish(Ping{1});
  stream.publish("s"s);
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"s"}));
  EXPECT_EQ(stream.unsubscribe(ref), 1u);
}

// A subscriber actor that terminates is unsubscribed automatically.
TEST(EventStream, TerminatedSubscribersAreUnsubscribed) {
  ManualSystem t;
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "sub");
  auto& stream = t.system->event_stream();
  const auto before = stream.subscriber_count();
  stream.subscribe<Ping>(ref);
  ref.stop();
  t.run();
  EXPECT_EQ(stream.subscriber_count(), before);
  stream.publish(Ping{1});
  EXPECT_TRUE(t.sink->letters().empty());
}

// Subscribing an actor that has already stopped keeps nothing (as Akka drops a
// dead subscriber): no subscription that could never be removed, holding the
// cell and through it the system (LeakSanitizer sees that cycle).
TEST(EventStream, AStoppedActorIsNeverSubscribed) {
  ManualSystem t;
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "sub");
  auto& stream = t.system->event_stream();
  const auto before = stream.subscriber_count();
  ref.stop();
  t.run();
  ASSERT_TRUE(ref.is_terminated());
  EXPECT_EQ(stream.subscribe<Ping>(ref), EventStream::kNoSubscription);
  EXPECT_EQ(stream.subscribe<Ping>(ActorRef()), EventStream::kNoSubscription);
  EXPECT_EQ(stream.subscriber_count(), before);
  stream.publish(Ping{1});
  EXPECT_TRUE(t.sink->letters().empty());
}

// Subscribes racing the subscriber's own stop never outlive it: once the tree
// is down, no actor subscription is left, whichever came first.
TEST(EventStream, SubscribeRacingStopLeavesNoSubscription) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto system =
      ActorSystem::create("subrace", ActorSystemOptions::create()
                                         .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
                                         .with_log_sink([](const LogEvent&) {}));
  auto& stream = system->event_stream();
  constexpr int kActors = 200;
  std::vector<ActorRef> refs;
  for (int i = 0; i < kActors; ++i) {
    refs.push_back(
        system->spawn(testing::recorder(std::make_shared<EventLog>()), "a" + std::to_string(i)));
  }
  std::atomic<bool> go{false};
  std::thread subscriber([&] {
    while (!go.load()) std::this_thread::yield();
    // While each one is stopping, and once more after it has stopped.
    for (const auto& ref : refs) {
      while (!ref.is_terminated()) stream.subscribe<Ping>(ref);
      stream.subscribe<Ping>(ref);
    }
  });
  go.store(true);
  for (const auto& ref : refs) ref.stop();
  subscriber.join();
  system->terminate();
  system->await_termination();
  EXPECT_EQ(stream.subscriber_count(), 0u);
}

// Log events go to the sink and are published on the event stream.
TEST(EventStream, LogEventsArePublished) {
  std::vector<std::string> sunk;
  ManualSystem t("logs", ActorSystemOptions().with_clock([] { return std::int64_t{42}; }));
  std::vector<LogEvent> published;
  t.system->event_stream().subscribe<LogEvent>(
      std::function<void(const LogEvent&)>([&](const LogEvent& e) { published.push_back(e); }));
  auto ref = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message&) {
                               self.ctx().log().info("hello");
                             }),
                             "talker");
  ref.tell(1);
  t.run();
  ASSERT_EQ(published.size(), 1u);
  EXPECT_EQ(published[0].level, LogLevel::kInfo);
  EXPECT_EQ(published[0].source, "/user/talker");
  EXPECT_EQ(published[0].message, "hello");
  EXPECT_EQ(published[0].timestamp_ms, 42);
}

// The user queue reaching 10,000 and then 20,000 publishes a MailboxSizeWarning each time.
TEST(EventStream, MailboxSizeWarningAt10000And20000) {
  ManualSystem t;
  std::vector<std::size_t> sizes;
  std::vector<std::string> paths;
  t.system->event_stream().subscribe<MailboxSizeWarning>(
      std::function<void(const MailboxSizeWarning&)>([&](const MailboxSizeWarning& w) {
        sizes.push_back(w.size);
        paths.push_back(w.path);
      }));
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "busy");
  for (int i = 0; i < 39999; ++i) ref.tell(i);
  EXPECT_EQ(sizes, (std::vector<std::size_t>{10000, 20000}));
  EXPECT_EQ(paths, (Strings{"/user/busy", "/user/busy"}));
}

}  // namespace
}  // namespace mailroom
