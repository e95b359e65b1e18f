// The thread pool's run-next slot: a cell told from a turn on a worker runs on
// that worker when the turn ends, without the shared queue. These pin what the
// slot must not cost: fairness to everyone else, progress behind a long turn,
// and one turn at a time per actor.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::chrono_literals;
using testing::LambdaActor;

std::shared_ptr<ActorSystem> pool_system(std::size_t workers) {
  return ActorSystem::create("runnext",
                             ActorSystemOptions()
                                 .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(workers))
                                 .with_log_sink([](const LogEvent&) {}));
}

struct Ball {
  int hits;
};

// Two actors that tell each other forever on a one-worker pool would keep the
// worker on the slot; the streak cap sends them through the shared queue, so
// a third actor told from outside still gets its turn.
TEST(ThreadPoolRunNext, AThirdActorProgressesWhileTwoPingPongForever) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto system = pool_system(1);
  auto a = std::make_shared<ActorRef>();
  auto b = std::make_shared<ActorRef>();
  auto hits = std::make_shared<std::atomic<int>>(0);
  *a = system->spawn(testing::lambda_actor([b, hits](LambdaActor&, const Message& m) {
                       hits->fetch_add(1, std::memory_order_relaxed);
                       b->tell(Ball{m.get<Ball>().hits + 1});
                     }),
                     "a");
  *b = system->spawn(testing::lambda_actor([a, hits](LambdaActor&, const Message& m) {
                       hits->fetch_add(1, std::memory_order_relaxed);
                       a->tell(Ball{m.get<Ball>().hits + 1});
                     }),
                     "b");
  auto greeted = std::make_shared<std::promise<void>>();
  auto third = system->spawn(
      testing::lambda_actor([greeted](LambdaActor&, const Message&) { greeted->set_value(); }),
      "third");
  a->tell(Ball{0});
  while (hits->load(std::memory_order_relaxed) < 10000) std::this_thread::yield();
  third.tell(std::string("hello"));
  const auto answer = greeted->get_future().wait_for(10s);
  EXPECT_EQ(answer, std::future_status::ready) << "the third actor starved behind the ping-pong";
  // The rally itself goes on (the worker may be off its core for a while).
  const int before = hits->load();
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (hits->load() == before && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_GT(hits->load(), before) << "the ping-pong stopped";
  // Terminated mid-rally: cells parked in a slot are released with the pool.
  system->terminate();
  system->await_termination();
  EXPECT_TRUE(system->is_terminated());
  *a = ActorRef();  // the two actors' handlers held each other's refs
  *b = ActorRef();
}

// A cell told from a turn that then runs long is not stuck in that worker's
// slot: an idle worker steals it once it has waited there a whole look.
TEST(ThreadPoolRunNext, ACellBehindALongTurnIsStolenByAnIdleWorker) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto system = pool_system(2);
  auto woken = std::make_shared<std::promise<void>>();
  auto waited = std::make_shared<std::promise<std::future_status>>();
  auto helper = system->spawn(
      testing::lambda_actor([woken](LambdaActor&, const Message&) { woken->set_value(); }),
      "helper");
  auto blocker =
      system->spawn(testing::lambda_actor([helper, woken, waited](LambdaActor&, const Message&) {
                      helper.tell(std::string("wake"));  // into this worker's slot
                      // A long turn: it ends only when the helper has run elsewhere.
                      waited->set_value(woken->get_future().wait_for(10s));
                    }),
                    "blocker");
  // Let both workers go idle first, so the thief has to be woken by the slot.
  std::this_thread::sleep_for(20ms);
  blocker.tell(std::string("go"));
  EXPECT_EQ(waited->get_future().get(), std::future_status::ready)
      << "the helper waited in the slot for the whole turn";
  system->terminate();
  system->await_termination();
}

// Pairs rallying on a pool (each turn's tell goes to a slot, idle workers
// steal): every ball arrives once, in order, and no actor runs on two threads
// at once.
TEST(ThreadPoolRunNext, RalliesOnAPoolDeliverEveryBallOnceAndNeverOverlap) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kPairs = 4;
  constexpr int kHits = 20000;
  auto system = pool_system(3);
  auto overlaps = std::make_shared<std::atomic<int>>(0);
  auto out_of_order = std::make_shared<std::atomic<int>>(0);
  std::vector<std::future<void>> finished;
  std::vector<ActorRef> servers;
  std::vector<std::shared_ptr<std::vector<ActorRef>>> pairs;
  for (int p = 0; p < kPairs; ++p) {
    auto ends = std::make_shared<std::vector<ActorRef>>(2);
    pairs.push_back(ends);
    auto done = std::make_shared<std::promise<void>>();
    finished.push_back(done->get_future());
    for (int side = 0; side < 2; ++side) {
      auto busy = std::make_shared<std::atomic<bool>>(false);
      auto expected =
          std::make_shared<int>(side);  // side 0 sees 0, 2, 4, ...; side 1 sees 1, 3, ...
      (*ends)[side] = system->spawn(testing::lambda_actor([=](LambdaActor&, const Message& m) {
                                      if (busy->exchange(true)) overlaps->fetch_add(1);
                                      const int hit = m.get<Ball>().hits;
                                      if (hit != *expected) out_of_order->fetch_add(1);
                                      *expected = hit + 2;
                                      if (hit + 1 == kHits) {
                                        done->set_value();
                                      } else if (hit + 1 < kHits) {
                                        (*ends)[1 - side].tell(Ball{hit + 1});
                                      }
                                      busy->store(false);
                                    }),
                                    "p" + std::to_string(p) + "s" + std::to_string(side));
    }
    servers.push_back((*ends)[0]);
  }
  for (auto& s : servers) s.tell(Ball{0});
  for (auto& f : finished) {
    EXPECT_EQ(f.wait_for(60s), std::future_status::ready);
  }
  EXPECT_EQ(overlaps->load(), 0);
  EXPECT_EQ(out_of_order->load(), 0);
  system->terminate();
  system->await_termination();
  for (auto& ends : pairs) ends->clear();  // each side's handler held the pair's refs
}

}  // namespace
}  // namespace mailroom
