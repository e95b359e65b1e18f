// The dead-letter queue's stores, ring, filters and bounds (seed 002, SPEC §4).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/metrics_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/dead_letter_lists.hpp"

namespace mailroom {
namespace {

using testing::by_recipient;
using testing::FakeReplayTarget;
using testing::ids;
using testing::recipients;

DeadLetter letter(Message message, std::string recipient, std::string sender_path = "",
                  ActorRef sender = {}) {
  return testing::make_letter(std::move(message), std::move(recipient), std::move(sender_path), 0,
                              std::move(sender));
}

DeadLetterQueueSettings memory(std::size_t max_entries = 1000, std::int64_t retention_ms = 0) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMemory;
  s.max_entries = max_entries;
  s.retention_ms = retention_ms;
  return s;
}

struct Harness {
  std::int64_t clock = 1000;
  MetricsRegistry metrics;
  FakeReplayTarget target;
  DeadLetterQueue::Dependencies deps() {
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.now_ms = [this] { return clock; };
    d.metrics = &metrics;
    return d;
  }
  // actor_dead_letters_total{outcome=...}
  std::uint64_t counted(const char* outcome) {
    return metrics.counter("actor_dead_letters_total", "", {{"outcome", outcome}}).value();
  }
};

// The default store keeps nothing and counts nothing.
TEST(DeadLetterQueue, OffStoreKeepsNothingAndCountsNothing) {
  Harness h;
  DeadLetterQueue queue(DeadLetterQueueSettings{}, h.deps());
  queue.capture(letter(std::string("a"), "/user/a"));
  EXPECT_TRUE(queue.list().empty());
  EXPECT_EQ(queue.stats().size, 0u);
  EXPECT_EQ(h.metrics.scrape().find("actor_dead_letters_total"), std::string::npos);
}

// metrics counts every letter but keeps no payload: list empty, replay unknown-entry.
TEST(DeadLetterQueue, MetricsStoreCountsWithoutKeepingEntries) {
  Harness h;
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMetrics;
  DeadLetterQueue queue(s, h.deps());
  queue.capture(letter(std::string("a"), "/user/a"));
  queue.capture(letter(std::string("b"), "/user/b"));
  EXPECT_TRUE(queue.list().empty());
  EXPECT_FALSE(queue.get(1).has_value());
  EXPECT_EQ(queue.replay(1).outcome, ReplayOutcome::kUnknownEntry);
  EXPECT_EQ(h.counted("captured"), 2u);
  EXPECT_EQ(h.counted("replay-failed"), 1u);
  EXPECT_EQ(h.counted("replayed"), 0u);
}

// memory keeps entries with ids from 1 and lists them newest first.
TEST(DeadLetterQueue, MemoryStoreListsNewestFirstWithIdsFromOne) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  for (const char* path : {"/user/a", "/user/b", "/user/c"}) {
    queue.capture(letter(std::string("m"), path));
  }
  const auto entries = queue.list();
  EXPECT_EQ(ids(entries), (std::vector<std::uint64_t>{3, 2, 1}));
  EXPECT_EQ(recipients(entries), (std::vector<std::string>{"/user/c", "/user/b", "/user/a"}));
  EXPECT_EQ(h.counted("captured"), 3u);
}

// An entry records time, recipient, sender (path and live ref), count 0 and the very message sent.
TEST(DeadLetterQueue, EntryKeepsTheOriginalMessageAndItsProvenance) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  const ActorRef sender = h.target.spawn("/user/client");
  const Message sent = std::string("order-17");
  h.clock = 4242;
  queue.capture(letter(sent, "/user/checkout", "/user/client", sender));
  queue.capture(letter(std::string("x"), "/user/checkout"));

  const auto first = queue.get(1);
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->timestamp_ms, 4242);
  EXPECT_EQ(first->recipient_path, "/user/checkout");
  EXPECT_EQ(first->sender_path, std::optional<std::string>("/user/client"));
  EXPECT_EQ(first->sender, sender);
  EXPECT_EQ(first->replay_count, 0u);
  EXPECT_FALSE(first->quarantined);
  ASSERT_FALSE(first->is_degraded());
  EXPECT_EQ(std::get<DeadLetterEntry::Captured>(first->payload).message.identity(),
            sent.identity());
  EXPECT_EQ(queue.get(2)->sender_path, std::nullopt);
  EXPECT_FALSE(queue.get(3).has_value());
}

// Two letters with equal payloads are two entries.
TEST(DeadLetterQueue, EqualPayloadsAreSeparateEntries) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  queue.capture(letter(std::string("same"), "/user/a"));
  queue.capture(letter(std::string("same"), "/user/a"));
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{2, 1}));
}

// recipient matches the path and its subtree on a segment boundary only.
TEST(DeadLetterQueue, RecipientFilterMatchesSubtreeOnSegmentBoundary) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  for (const char* path : {"/user/orders", "/user/orders/a", "/user/orders-archive",
                           "/user/orders/a/b", "/system/x"}) {
    queue.capture(letter(std::string("m"), path));
  }
  EXPECT_EQ(recipients(queue.list(by_recipient(std::string("/user/orders")))),
            (std::vector<std::string>{"/user/orders/a/b", "/user/orders/a", "/user/orders"}));
  EXPECT_EQ(recipients(queue.list(by_recipient(std::string("/user/orders/")))),
            (std::vector<std::string>{"/user/orders/a/b", "/user/orders/a", "/user/orders"}));
  EXPECT_EQ(recipients(queue.list(by_recipient(std::string("/user/orders-archive")))),
            (std::vector<std::string>{"/user/orders-archive"}));
  EXPECT_EQ(queue.list(by_recipient(std::string("/user"))).size(), 4u);
  EXPECT_EQ(queue.list(by_recipient(std::string("/"))).size(), 5u);
  EXPECT_TRUE(queue.list(by_recipient(std::string("/user/order"))).empty());
}

// Full paths with a scheme and system are accepted, with or without a ReplayTarget.
TEST(DeadLetterQueue, RecipientFilterAcceptsFullPaths) {
  Harness h;
  DeadLetterQueue with_target(memory(), h.deps());
  DeadLetterQueue::Dependencies bare;
  DeadLetterQueue without_target(memory(), bare);
  for (DeadLetterQueue* queue : {&with_target, &without_target}) {
    queue->capture(letter(std::string("m"), "/user/checkout"));
    queue->capture(letter(std::string("m"), "/user/checkout/payment"));
    queue->capture(letter(std::string("m"), "/user/other"));
    EXPECT_EQ(recipients(queue->list(by_recipient(std::string("actor-ts://shop/user/checkout")))),
              (std::vector<std::string>{"/user/checkout/payment", "/user/checkout"}));
    EXPECT_EQ(queue->list(by_recipient(std::string("mailroom://shop/user"))).size(), 3u);
  }
}

// since/until bound the timestamp (inclusive) and limit cuts the newest-first list.
TEST(DeadLetterQueue, TimeWindowAndLimitNarrowTheList) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  for (std::int64_t t : {100, 200, 300, 400}) {
    h.clock = t;
    queue.capture(letter(std::string("m"), "/user/a"));
  }
  DeadLetterFilter window;
  window.since_ms = 200;
  window.until_ms = 300;
  EXPECT_EQ(ids(queue.list(window)), (std::vector<std::uint64_t>{3, 2}));
  DeadLetterFilter limited;
  limited.limit = 3;
  EXPECT_EQ(ids(queue.list(limited)), (std::vector<std::uint64_t>{4, 3, 2}));
  limited.limit = 0;
  EXPECT_TRUE(queue.list(limited).empty());
}

// Past max-entries the oldest entries are evicted, and counted.
TEST(DeadLetterQueue, MaxEntriesEvictsTheOldestFirst) {
  Harness h;
  DeadLetterQueue queue(memory(3), h.deps());
  for (int i = 0; i < 5; ++i) queue.capture(letter(i, "/user/a"));
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{5, 4, 3}));
  EXPECT_EQ(queue.stats().evicted, 2u);
  EXPECT_EQ(queue.stats().captured, 5u);
}

// Entries older than retention age out (on capture and on read); exactly retention old stays.
TEST(DeadLetterQueue, RetentionAgesOutOldEntries) {
  Harness h;
  DeadLetterQueue queue(memory(1000, 1000), h.deps());
  h.clock = 0;
  queue.capture(letter(1, "/user/a"));
  h.clock = 500;
  queue.capture(letter(2, "/user/a"));
  h.clock = 1000;
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{2, 1}));
  h.clock = 1001;
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{2}));
  h.clock = 1600;
  queue.capture(letter(3, "/user/a"));
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(queue.stats().aged_out, 2u);
}

// retention 0 never ages anything out.
TEST(DeadLetterQueue, RetentionZeroNeverAges) {
  Harness h;
  DeadLetterQueue queue(memory(1000, 0), h.deps());
  h.clock = 0;
  queue.capture(letter(1, "/user/a"));
  h.clock = 365LL * 24 * 3600 * 1000;
  EXPECT_EQ(queue.list().size(), 1u);
}

// clear forgets every entry; ids keep counting up.
TEST(DeadLetterQueue, ClearForgetsEveryEntry) {
  Harness h;
  DeadLetterQueue queue(memory(), h.deps());
  queue.capture(letter(1, "/user/a"));
  queue.capture(letter(2, "/user/a"));
  queue.clear();
  EXPECT_TRUE(queue.list().empty());
  EXPECT_FALSE(queue.get(1).has_value());
  queue.capture(letter(3, "/user/a"));
  EXPECT_EQ(ids(queue.list()), (std::vector<std::uint64_t>{3}));
}

// A failure inside capture (here: the clock) never reaches the sender; it is counted and reported.
TEST(DeadLetterQueue, CaptureNeverThrowsIntoTheSender) {
  Harness h;
  auto deps = h.deps();
  bool broken = true;
  deps.now_ms = [&broken]() -> std::int64_t {
    if (broken) throw std::runtime_error("clock down");
    return 0;
  };
  std::vector<std::string> reports;
  deps.report_damage = [&reports](const std::string& what) { reports.push_back(what); };
  DeadLetterQueue queue(memory(), deps);
  EXPECT_NO_THROW(queue.capture(letter(1, "/user/a")));
  EXPECT_EQ(queue.stats().capture_failures, 1u);
  EXPECT_EQ(reports, (std::vector<std::string>{"dead-letter capture failed: clock down"}));
  broken = false;
  queue.capture(letter(2, "/user/a"));
  EXPECT_EQ(queue.list().size(), 1u);
}

// 100,000 entries filtered by recipient give exactly the matching ones.
TEST(DeadLetterQueue, RecipientFilterOverALargeRing) {
  Harness h;
  DeadLetterQueue queue(memory(100000), h.deps());
  for (int i = 0; i < 100000; ++i) {
    queue.capture(letter(i, i % 1000 == 0 ? "/user/rare/x" : "/user/common"));
  }
  const auto rare = queue.list(by_recipient(std::string("/user/rare")));
  ASSERT_EQ(rare.size(), 100u);
  EXPECT_EQ(rare.front().id, 99001u);
  EXPECT_EQ(rare.back().id, 1u);
}

// Four threads capturing 10,000 letters each: every letter kept once, ids 1..40,000.
TEST(DeadLetterQueue, ConcurrentCapturesAreAllKept) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  Harness h;
  DeadLetterQueue::Dependencies deps;
  deps.metrics = &h.metrics;
  DeadLetterQueue queue(memory(40000), deps);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&queue, t] {
      for (int i = 0; i < 10000; ++i) queue.capture(letter(t * 10000 + i, "/user/a"));
    });
  }
  for (auto& thread : threads) thread.join();
  const auto entries = queue.list();
  ASSERT_EQ(entries.size(), 40000u);
  const auto all_ids = ids(entries);
  std::set<std::uint64_t> unique(all_ids.begin(), all_ids.end());
  EXPECT_EQ(unique.size(), 40000u);
  EXPECT_EQ(*unique.begin(), 1u);
  EXPECT_EQ(*unique.rbegin(), 40000u);
  std::set<int> payloads;
  for (const auto& e : entries) {
    payloads.insert(std::get<DeadLetterEntry::Captured>(e.payload).message.get<int>());
  }
  EXPECT_EQ(payloads.size(), 40000u);
  EXPECT_EQ(h.counted("captured"), 40000u);
  EXPECT_EQ(queue.stats().captured, 40000u);
}

// Readers, replays and clears running alongside captures keep the queue consistent.
TEST(DeadLetterQueue, ConcurrentReadersAndWritersStayConsistent) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  DeadLetterQueue queue(memory(500), {});  // no target: every replay is unresolved
  std::atomic<bool> done{false};
  std::thread writer([&] {
    for (int i = 0; i < 20000; ++i) queue.capture(letter(i, i % 2 ? "/user/a" : "/user/b/c"));
    done = true;
  });
  std::thread reader([&] {
    while (!done) {
      const auto entries = queue.list(by_recipient("/user/b"));
      EXPECT_LE(entries.size(), 500u);
      for (std::size_t i = 1; i < entries.size(); ++i) EXPECT_GT(entries[i - 1].id, entries[i].id);
      if (!entries.empty()) {
        // Unknown when a capture evicted it in between.
        const ReplayOutcome outcome = queue.replay(entries.front().id).outcome;
        EXPECT_TRUE(outcome == ReplayOutcome::kUnresolvedRecipient ||
                    outcome == ReplayOutcome::kUnknownEntry)
            << to_string(outcome);
      }
    }
  });
  writer.join();
  reader.join();
  EXPECT_EQ(queue.stats().size, 500u);
  EXPECT_EQ(queue.stats().captured, 20000u);
  EXPECT_EQ(queue.stats().evicted, 19500u);
  queue.clear();
  EXPECT_EQ(queue.stats().size, 0u);
}

// Stores and outcomes have exactly the documented names, both ways.
TEST(DeadLetterQueue, EnumsRoundTripTheirNames) {
  for (const char* name : {"off", "metrics", "memory", "persistent"}) {
    EXPECT_EQ(to_string(*dead_letter_store_from_string(name)), name);
  }
  for (const char* name : {"replayed", "unknown-entry", "unresolved-recipient", "degraded-payload",
                           "quarantined", "rejected", "control-message"}) {
    EXPECT_EQ(to_string(*replay_outcome_from_string(name)), name);
  }
  EXPECT_FALSE(dead_letter_store_from_string("log").has_value());
  EXPECT_FALSE(replay_outcome_from_string("failed").has_value());
}

}  // namespace
}  // namespace mailroom
