// Conservation under load (issue 7): four producer threads flood one slow
// consumer on a ThreadPoolDispatcher(2). Every message sent is accounted for
// exactly once — delivered, dropped (and then dead-lettered) or rejected at
// the tell — and the drop counts agree across the mailbox, the metrics and
// the dead-letter queue. MAILROOM_FULL_LOAD=1 sends 1,000,000 per producer.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

constexpr int kProducers = 4;
constexpr std::size_t kCapacity = 64;

std::uint64_t per_producer() {
  const char* full = std::getenv("MAILROOM_FULL_LOAD");
  if (full && std::string(full) == "1") return 1000000;
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
  return 5000;  // the sanitizer lanes run a smaller version
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  return 5000;
#endif
  return 50000;
}

// Everything counted by the test itself; waited on without sleeping.
struct Ledger {
  std::atomic<std::uint64_t> delivered{0};
  std::atomic<std::uint64_t> dead_lettered{0};
  std::atomic<std::uint64_t> rejected{0};
  std::mutex mutex;
  std::condition_variable changed;

  std::uint64_t accounted() const { return delivered + dead_lettered + rejected; }
  void bump(std::atomic<std::uint64_t>& counter) {
    counter.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lock(mutex);
    changed.notify_all();
  }
  // True once every message sent is accounted for; false after the deadline
  // (a safety net so a lost message fails the test instead of hanging it).
  bool wait_for(std::uint64_t sent) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, std::chrono::minutes(5), [&] { return accounted() >= sent; });
  }
};

// Does a little work per message so that the producers outrun it.
class SlowConsumer final : public Actor {
 public:
  explicit SlowConsumer(std::shared_ptr<Ledger> ledger) : ledger_(std::move(ledger)) {}
  void receive(const Message& m) override {
    if (!m.is<int>()) return;
    volatile std::uint64_t sink = 0;
    for (int i = 0; i < 200; ++i) sink = sink + static_cast<std::uint64_t>(i);
    ledger_->bump(ledger_->delivered);
  }

 private:
  std::shared_ptr<Ledger> ledger_;
};

// The sum of every actor_mailbox_dropped_total sample in the scrape.
std::uint64_t scraped_drops(const std::string& text) {
  std::uint64_t total = 0;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("actor_mailbox_dropped_total{", 0) != 0) continue;
    total += std::stoull(line.substr(line.rfind(' ') + 1));
  }
  return total;
}

struct Outcome {
  std::uint64_t sent = 0, delivered = 0, dropped = 0, rejected = 0, dead_lettered = 0;
  std::uint64_t metric_drops = 0, queue_captured = 0;
};

// Floods one consumer whose mailbox `make` builds; returns every count.
Outcome flood(const std::function<std::shared_ptr<MessageQueue>()>& make) {
  auto ledger = std::make_shared<Ledger>();
  auto system = ActorSystem::create(
      "load", ActorSystemOptions::create()
                  .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
                  .with_dead_letters(DeadLetterQueueOptions::create().with_store("metrics"))
                  .with_log_sink([](const LogEvent&) {}));
  system->event_stream().subscribe<DeadLetter>(std::function<void(const DeadLetter&)>(
      [ledger](const DeadLetter&) { ledger->bump(ledger->dead_lettered); }));
  std::shared_ptr<MessageQueue> mailbox = make();
  auto consumer =
      system->spawn([ledger] { return std::make_unique<SlowConsumer>(ledger); }, "consumer",
                    ActorOptions::create().with_mailbox([mailbox] { return mailbox; }));

  const std::uint64_t n = per_producer();
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (std::uint64_t i = 0; i < n; ++i) {
        try {
          consumer.tell(static_cast<int>((i * kProducers + p) % 1000));
        } catch (const MailboxFullError&) {
          ledger->bump(ledger->rejected);
        }
      }
    });
  }
  for (auto& t : producers) t.join();

  Outcome out;
  out.sent = n * kProducers;
  EXPECT_TRUE(ledger->wait_for(out.sent))
      << "accounted " << ledger->accounted() << " of " << out.sent;
  out.delivered = ledger->delivered;
  out.rejected = ledger->rejected;
  out.dead_lettered = ledger->dead_lettered;
  out.dropped = mailbox->dropped_count();
  // The metrics store keeps no entries, only actor_dead_letters_total.
  const auto text = system->metrics().scrape();
  out.metric_drops = scraped_drops(text);
  const std::string key = "actor_dead_letters_total{outcome=\"captured\"} ";
  const auto at = text.find(key);
  if (at != std::string::npos) out.queue_captured = std::stoull(text.substr(at + key.size()));
  system->terminate();
  system->await_termination();
  return out;
}

void expect_conserved(const Outcome& o) {
  std::cout << "[ conserve ] sent " << o.sent << " delivered " << o.delivered << " dropped "
            << o.dropped << " rejected " << o.rejected << " dead-lettered " << o.dead_lettered
            << "\n";
  EXPECT_EQ(o.delivered + o.dropped + o.rejected, o.sent);
  EXPECT_EQ(o.dead_lettered, o.dropped);
  EXPECT_EQ(o.metric_drops, o.dropped);
  EXPECT_EQ(o.queue_captured, o.dropped);
  EXPECT_GT(o.delivered, 0u);
}

std::shared_ptr<MessageQueue> bounded(OverflowPolicy policy) {
  return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                              .with_capacity(static_cast<double>(kCapacity))
                                              .with_overflow(policy)
                                              .with_dead_letter_drops(true));
}

// Drop-head: delivered + dropped == sent; every drop is one dead letter and one metric sample.
TEST(Conservation, DropHeadAccountsForEveryMessage) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto o = flood([] { return bounded(OverflowPolicy::kDropHead); });
  expect_conserved(o);
  EXPECT_EQ(o.rejected, 0u);
  EXPECT_GT(o.dropped, 0u);
}

// Drop-new: the discarded arrivals are exactly the dead letters.
TEST(Conservation, DropNewAccountsForEveryMessage) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto o = flood([] { return bounded(OverflowPolicy::kDropNew); });
  expect_conserved(o);
  EXPECT_EQ(o.rejected, 0u);
  EXPECT_GT(o.dropped, 0u);
}

// Reject: producers count their MailboxFullErrors; nothing is dropped or dead-lettered.
TEST(Conservation, RejectAccountsForEveryMessage) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto o = flood([] { return bounded(OverflowPolicy::kReject); });
  expect_conserved(o);
  EXPECT_EQ(o.dropped, 0u);
  EXPECT_GT(o.rejected, 0u);
}

// Priority drop-lowest-priority: whichever end lost is dead-lettered, once.
TEST(Conservation, PriorityDropLowestAccountsForEveryMessage) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  auto o = flood([] {
    return std::make_shared<PriorityMailbox>(PriorityMailboxOptions::create()
                                                 .with_priority_for([](const Envelope& e) {
                                                   auto v = e.message.get_if<int>();
                                                   return v ? static_cast<double>(*v % 10) : 0.0;
                                                 })
                                                 .with_capacity(static_cast<double>(kCapacity))
                                                 .with_overflow(OverflowPolicy::kDropLowestPriority)
                                                 .with_dead_letter_drops(true));
  });
  expect_conserved(o);
  EXPECT_EQ(o.rejected, 0u);
  EXPECT_GT(o.dropped, 0u);
}

}  // namespace
}  // namespace mailroom
