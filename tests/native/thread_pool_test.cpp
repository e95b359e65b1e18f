#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using testing::LambdaActor;
using namespace std::chrono_literals;

std::shared_ptr<ActorSystem> pool_system(std::size_t workers) {
  return ActorSystem::create("pool",
                             ActorSystemOptions()
                                 .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(workers))
                                 .with_log_sink([](const LogEvent&) {}));
}

struct Numbered {
  int sender;
  int seq;
};

// 8 threads x 100,000 tells to one actor: each message exactly once, in
// per-sender order, and the actor never runs on two threads at once.
TEST(ThreadPool, ManySendersToOneActorDeliverExactlyOnceInPerSenderOrder) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kSenders = 8;
  constexpr int kPerSender = 100000;
  auto system =
      ActorSystem::create("pool", ActorSystemOptions()
                                      .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(4))
                                      .with_log_sink([](const LogEvent&) {}));
  auto busy = std::make_shared<std::atomic<bool>>(false);
  auto overlaps = std::make_shared<std::atomic<int>>(0);
  auto next = std::make_shared<std::vector<int>>(kSenders, 0);
  auto out_of_order = std::make_shared<int>(0);
  auto received = std::make_shared<int>(0);
  auto done = std::make_shared<std::promise<void>>();
  auto ref = system->spawn(testing::lambda_actor([=](LambdaActor&, const Message& m) {
                             if (busy->exchange(true)) overlaps->fetch_add(1);
                             const auto& n = m.get<Numbered>();
                             if ((*next)[n.sender] != n.seq) ++*out_of_order;
                             (*next)[n.sender] = n.seq + 1;
                             if (++*received == kSenders * kPerSender) done->set_value();
                             busy->store(false);
                           }),
                           "sink");
  std::vector<std::thread> senders;
  for (int s = 0; s < kSenders; ++s) {
    senders.emplace_back([ref, s] {
      for (int i = 0; i < kPerSender; ++i) ref.tell(Numbered{s, i});
    });
  }
  for (auto& t : senders) t.join();
  done->get_future().wait();
  EXPECT_EQ(*received, kSenders * kPerSender);
  EXPECT_EQ(*out_of_order, 0);
  EXPECT_EQ(overlaps->load(), 0);
  for (int s = 0; s < kSenders; ++s) EXPECT_EQ((*next)[s], kPerSender);
  system->terminate();
  system->await_termination();
  EXPECT_TRUE(system->is_terminated());
}

// A pool's turn goes on past its actor's throughput while no other cell waits
// for the worker, but it still ends at the next throughput's boundary once
// another actor is queued: on one worker, an actor told from outside runs
// after one message of a busy actor with 1,000 more.
TEST(ThreadPool, ALongTurnYieldsToAnActorQueuedMeanwhile) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto system = pool_system(1);
  auto entered = std::make_shared<std::promise<void>>();
  auto gate = std::make_shared<std::promise<void>>();
  auto gate_open = std::make_shared<std::shared_future<void>>(gate->get_future().share());
  auto busy_done = std::make_shared<std::atomic<int>>(0);
  auto seen_at = std::make_shared<std::promise<int>>();
  auto busy = system->spawn(testing::lambda_actor([=](LambdaActor&, const Message& m) {
                              if (m.get<int>() == 0) {
                                entered->set_value();
                                gate_open->wait();
                              }
                              busy_done->fetch_add(1);
                            }),
                            "busy", ActorOptions().with_throughput(1));
  auto other = system->spawn(testing::lambda_actor([=](LambdaActor&, const Message&) {
                               seen_at->set_value(busy_done->load());
                             }),
                             "other");
  busy.tell(0);
  entered->get_future().wait();
  for (int i = 1; i <= 1000; ++i) busy.tell(i);
  other.tell(std::string("hello"));
  gate->set_value();
  auto answer = seen_at->get_future();
  ASSERT_EQ(answer.wait_for(10s), std::future_status::ready);
  EXPECT_EQ(answer.get(), 1) << "the other actor waited behind the busy actor's backlog";
  system->terminate();
  system->await_termination();
}

// await_termination blocks until the tree is down; when_terminated runs once.
TEST(ThreadPool, AwaitTerminationReturnsOnceTheTreeIsDown) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto system =
      ActorSystem::create("pool", ActorSystemOptions().with_log_sink([](const LogEvent&) {}));
  auto stopped = std::make_shared<std::atomic<int>>(0);
  for (int i = 0; i < 20; ++i) {
    system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {}, {},
                                        [stopped](LambdaActor&) { stopped->fetch_add(1); }),
                  "a" + std::to_string(i));
  }
  std::atomic<int> callbacks{0};
  system->when_terminated([&] { callbacks.fetch_add(1); });
  system->terminate();
  system->terminate();
  system->await_termination();
  EXPECT_EQ(stopped->load(), 20);
  EXPECT_EQ(callbacks.load(), 1);
}

}  // namespace
}  // namespace mailroom
