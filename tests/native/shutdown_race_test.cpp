// Exact shutdown under racing producers (issue 13): producer threads keep
// telling while the system terminates, is awaited and is destroyed. Every
// message whose tell returned (or threw MailboxFullError) is accounted for
// exactly once — delivered, rejected or dead-lettered — and every message
// told before terminate() is accounted for by the time await_termination()
// returns. Run under ASan/LSan (whole suite) and TSan (scripts/test.d/75-tsan.sh).
// MAILROOM_SHUTDOWN_CYCLES sets the cycles per mailbox kind.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

constexpr int kProducers = 3;
constexpr int kPerProducer = 1 << 16;  // the most one producer tells per cycle
constexpr std::size_t kCapacity = 16;

int cycles() {
  if (const char* env = std::getenv("MAILROOM_SHUTDOWN_CYCLES")) return std::atoi(env);
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  return 6;  // the sanitizer lanes run a shorter version
#endif
  return 40;
}

// One mark per message id: how many times it was accounted for.
struct Ledger {
  std::vector<std::atomic<std::uint8_t>> marks =
      std::vector<std::atomic<std::uint8_t>>(kProducers * kPerProducer);
  void mark(int id) { marks[static_cast<std::size_t>(id)].fetch_add(1); }
  std::uint8_t count(int producer, int i) const {
    return marks[static_cast<std::size_t>(producer * kPerProducer + i)].load();
  }
};

class Counter final : public Actor {
 public:
  explicit Counter(std::shared_ptr<Ledger> ledger) : ledger_(std::move(ledger)) {}
  void receive(const Message& m) override {
    if (auto id = m.get_if<int>()) ledger_->mark(*id);
  }

 private:
  std::shared_ptr<Ledger> ledger_;
};

using MailboxMaker = std::function<std::shared_ptr<MessageQueue>()>;

// One cycle: producers race with terminate(), await_termination() and the
// system's destruction; fails when a message was lost, late or counted twice.
void run_cycle(const MailboxMaker& make, std::mt19937& random, int pace) {
  auto ledger = std::make_shared<Ledger>();
  auto system = ActorSystem::create(
      "race", ActorSystemOptions::create()
                  .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
                  .with_dead_letters(DeadLetterQueueOptions::create().with_store("metrics"))
                  .with_log_sink([](const LogEvent&) {}));
  system->event_stream().subscribe<DeadLetter>(
      std::function<void(const DeadLetter&)>([ledger](const DeadLetter& letter) {
        if (auto id = letter.message.get_if<int>()) ledger->mark(*id);
      }));
  std::vector<ActorRef> targets;
  for (const char* name : {"a", "b"}) {
    targets.push_back(
        system->spawn([ledger] { return std::make_unique<Counter>(ledger); }, name,
                      ActorOptions::create().with_mailbox([make] { return make(); })));
  }

  std::atomic<bool> stop{false};
  std::vector<std::atomic<int>> returned(kProducers);  // tells that have returned, per producer
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer && !stop.load(std::memory_order_relaxed); ++i) {
        const int id = p * kPerProducer + i;
        try {
          targets[static_cast<std::size_t>(i % 2)].tell(id);
        } catch (const MailboxFullError&) {
          ledger->mark(id);
        }
        returned[static_cast<std::size_t>(p)].store(i + 1, std::memory_order_release);
        // Paced every other cycle, so that the flood outlasts the system.
        if (i % pace == pace - 1) std::this_thread::yield();
      }
    });
  }
  // Let the producers get going: terminate at a random point of the flood.
  const int start_after = std::uniform_int_distribution<int>(0, 3000)(random);
  for (;;) {
    int total = 0;
    for (auto& r : returned) total += r.load(std::memory_order_acquire);
    if (total >= start_after) break;
    std::this_thread::yield();
  }

  std::vector<int> before(kProducers);
  for (int p = 0; p < kProducers; ++p) before[p] = returned[p].load(std::memory_order_acquire);
  system->terminate();
  system->await_termination();
  // Checked before anything else can account for them.
  std::string late;
  for (int p = 0; p < kProducers && late.empty(); ++p) {
    for (int i = 0; i < before[p]; ++i) {
      if (ledger->count(p, i) == 0) {
        late = "message " + std::to_string(i) + " of producer " + std::to_string(p) +
               " was told before terminate() but not accounted for when await_termination() "
               "returned";
        break;
      }
    }
  }
  system.reset();  // destroyed while the producers still tell
  for (int spin = 0; spin < 50; ++spin) std::this_thread::yield();
  stop.store(true);
  for (auto& t : producers) t.join();
  targets.clear();
  ASSERT_TRUE(late.empty()) << late;

  for (int p = 0; p < kProducers; ++p) {
    const int told = returned[p].load();
    for (int i = 0; i < told; ++i) {
      ASSERT_EQ(ledger->count(p, i), 1)
          << "message " << i << " of producer " << p << " (of " << told
          << " told) was accounted for " << +ledger->count(p, i) << " times";
    }
    for (int i = told; i < kPerProducer; ++i) ASSERT_EQ(ledger->count(p, i), 0);
  }
}

void run_cycles(const MailboxMaker& make) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  std::mt19937 random(20261201);
  for (int cycle = 0; cycle < cycles(); ++cycle) {
    SCOPED_TRACE("cycle " + std::to_string(cycle));
    run_cycle(make, random, cycle % 2 == 0 ? 64 : 8);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

std::shared_ptr<MessageQueue> bounded(OverflowPolicy policy) {
  return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                              .with_capacity(static_cast<double>(kCapacity))
                                              .with_overflow(policy)
                                              .with_dead_letter_drops(true));
}

std::shared_ptr<MessageQueue> priority(OverflowPolicy policy) {
  return std::make_shared<PriorityMailbox>(PriorityMailboxOptions::create()
                                               .with_priority_for([](const Envelope& e) {
                                                 auto v = e.message.get_if<int>();
                                                 return v ? static_cast<double>(*v % 7) : 0.0;
                                               })
                                               .with_capacity(static_cast<double>(kCapacity))
                                               .with_overflow(policy)
                                               .with_dead_letter_drops(true));
}

// Unbounded: every tell that returned is delivered or dead-lettered, once.
TEST(ShutdownRace, UnboundedLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return std::make_shared<UnboundedMailbox>(); });
}

// Bounded reject: a racing tell is delivered, rejected at the tell or dead-lettered.
TEST(ShutdownRace, BoundedRejectLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return bounded(OverflowPolicy::kReject); });
}

// Bounded drop-head: the evicted head is a dead letter; nothing else vanishes.
TEST(ShutdownRace, BoundedDropHeadLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return bounded(OverflowPolicy::kDropHead); });
}

// Bounded drop-new: the refused arrival is a dead letter.
TEST(ShutdownRace, BoundedDropNewLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return bounded(OverflowPolicy::kDropNew); });
}

// Priority reject: as bounded reject, in rank order.
TEST(ShutdownRace, PriorityRejectLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return priority(OverflowPolicy::kReject); });
}

// Priority drop-lowest-priority: whichever message lost is a dead letter.
TEST(ShutdownRace, PriorityDropLowestLosesNothingWhileTerminatingAndDestroying) {
  run_cycles([] { return priority(OverflowPolicy::kDropLowestPriority); });
}

class Idle final : public Actor {
 public:
  void receive(const Message&) override {}
};

// A scrape racing the system's destruction (terminate, await, release_tree)
// is safe: the size gauge reads the tree's anchors under the lock
// release_tree takes. A ref keeps the core, and so the registry, alive.
TEST(ShutdownRace, AScrapeRacingTheSystemsDestructionIsSafe) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  for (int cycle = 0; cycle < cycles(); ++cycle) {
    auto system = ActorSystem::create(
        "scrape", ActorSystemOptions::create()
                      .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
                      .with_log_sink([](const LogEvent&) {}));
    ActorRef keep = system->spawn<Idle>("a");
    for (int i = 0; i < 8; ++i) system->spawn<Idle>("b" + std::to_string(i));
    MetricsRegistry& metrics = system->metrics();
    std::atomic<bool> started{false};
    std::atomic<bool> done{false};
    std::string last;
    std::thread scraper([&] {
      while (!done.load()) {
        last = metrics.scrape();
        started.store(true);
      }
    });
    while (!started.load()) std::this_thread::yield();
    system.reset();  // the facade's destructor releases the tree meanwhile
    done.store(true);
    scraper.join();
    last = metrics.scrape();
    // Released: no actor is left to report.
    EXPECT_EQ(last.find("actor_mailbox_size{"), std::string::npos) << last;
  }
}

}  // namespace
}  // namespace mailroom
