// The lock-free queue under the unbounded mailbox, and the block pool that
// feeds it: FIFO, per-producer order under contention, exact sizes, nothing
// lost or duplicated.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/detail/block_pool.hpp"
#include "mailroom/detail/mpsc_queue.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

// A queued envelope keeps every field: the rare ones (context, replay entry,
// signal) travel out of line, the common ones in the node.
TEST(MpscQueue, EnvelopesKeepEveryFieldThroughTheQueue) {
  MpscQueue<Envelope, detail::EnvelopePacking> q;
  auto context = std::make_shared<const EnvelopeContext>(EnvelopeContext{"trace-1", {{"k", "v"}}});
  q.push(Envelope{Message(1), {}, {}, 0, false});
  q.push(Envelope{Message(std::string("two")), {}, context, 42, true});
  auto first = q.pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->message.get<int>(), 1);
  EXPECT_EQ(first->context, nullptr);
  EXPECT_EQ(first->replay_entry, 0u);
  EXPECT_FALSE(first->signal);
  auto second = q.pop();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->message.get<std::string>(), "two");
  EXPECT_EQ(second->context, context);
  EXPECT_EQ(second->replay_entry, 42u);
  EXPECT_TRUE(second->signal);
  EXPECT_FALSE(q.pop().has_value());
}

// One producer: values come out in the order they went in, and size() follows.
TEST(MpscQueue, SingleProducerIsFifoWithExactSize) {
  MpscQueue<std::string> q;
  EXPECT_FALSE(q.pop().has_value());
  for (int i = 0; i < 100; ++i) q.push(std::to_string(i));
  EXPECT_EQ(q.size(), 100u);
  for (int i = 0; i < 100; ++i) {
    auto v = q.pop();
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(*v, std::to_string(i));
  }
  EXPECT_EQ(q.size(), 0u);
  EXPECT_FALSE(q.pop().has_value());
  EXPECT_TRUE(q.empty_for_consumer());
}

// size_at_least agrees with size() on both sides of the threshold, after pops.
TEST(MpscQueue, SizeAtLeastAgreesWithSize) {
  MpscQueue<int> q;
  for (int i = 0; i < 50; ++i) q.push(int{i});
  EXPECT_TRUE(q.size_at_least(50));
  EXPECT_FALSE(q.size_at_least(51));
  for (int i = 0; i < 30; ++i) q.pop();
  EXPECT_TRUE(q.size_at_least(20));
  EXPECT_FALSE(q.size_at_least(21));  // the stale hint must not overstate it
  for (int i = 0; i < 5; ++i) q.push(int{i});
  EXPECT_TRUE(q.size_at_least(25));
  EXPECT_FALSE(q.size_at_least(26));
}

// Values left in the queue are destroyed with it (no leak under ASan).
TEST(MpscQueue, DestroysWhatIsLeft) {
  auto shared = std::make_shared<int>(7);
  {
    MpscQueue<std::shared_ptr<int>> q;
    for (int i = 0; i < 10; ++i) q.push(std::shared_ptr<int>(shared));
    EXPECT_EQ(shared.use_count(), 11);
    q.pop();
    EXPECT_EQ(shared.use_count(), 10);
  }
  EXPECT_EQ(shared.use_count(), 1);
}

// Four producers against one consumer popping at the same time: every value
// arrives exactly once, each producer's values in its own order, and size()
// seen from a fifth thread never exceeds what was pushed.
TEST(MpscQueueConcurrency, ManyProducersOneConsumerLoseNothingKeepOrder) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kProducers = 4;
  constexpr int kPerProducer = 50000;
  MpscQueue<std::pair<int, int>> q;
  std::atomic<bool> done{false};
  std::atomic<bool> size_ok{true};
  std::thread observer([&] {
    while (!done.load()) {
      if (q.size() > static_cast<std::size_t>(kProducers * kPerProducer)) size_ok = false;
    }
  });
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&q, p] {
      for (int i = 0; i < kPerProducer; ++i) q.push({p, i});
    });
  }
  std::vector<int> next(kProducers, 0);
  int received = 0;
  bool in_order = true;
  while (received < kProducers * kPerProducer) {
    auto v = q.pop();
    if (!v) {
      std::this_thread::yield();
      continue;
    }
    if (v->second != next[v->first]) in_order = false;
    next[v->first] = v->second + 1;
    ++received;
  }
  for (auto& t : producers) t.join();
  done = true;
  observer.join();
  EXPECT_TRUE(in_order);
  EXPECT_TRUE(size_ok.load());
  EXPECT_FALSE(q.pop().has_value());
  EXPECT_EQ(q.size(), 0u);
}

// More sending threads than the queue has owned push counters (two): the rest
// share the atomic one. While they push, size() read from another thread only
// grows and never passes what was pushed; once they are done it is exact. The
// bound a push returns (the size warning's check) counts at least the
// pusher's own pushes, as size_at_least does.
TEST(MpscQueueConcurrency, SizeCountsThreadsWithAndWithoutAnOwnedCounter) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kProducers = 5;
  constexpr int kPerProducer = 20000;
  constexpr std::size_t kTotal = std::size_t{kProducers} * kPerProducer;
  MpscQueue<int> q;
  std::atomic<bool> done{false};
  std::atomic<bool> monotone{true};
  std::atomic<bool> bounded{true};
  std::thread observer([&] {
    std::size_t last = 0;
    while (!done.load()) {
      const std::size_t now = q.size();
      if (now < last) monotone = false;
      if (now > kTotal) bounded = false;
      last = now;
    }
  });
  std::vector<std::thread> producers;
  std::atomic<bool> own_push_seen{true};
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        const std::uint64_t bound = q.push(p * kPerProducer + i);
        // A sender's check after its own push sees at least its own pushes.
        if (bound < static_cast<std::uint64_t>(i) + 1) own_push_seen = false;
        if (!q.size_at_least(static_cast<std::size_t>(i) + 1)) own_push_seen = false;
      }
    });
  }
  for (auto& t : producers) t.join();
  done = true;
  observer.join();
  EXPECT_TRUE(monotone.load());
  EXPECT_TRUE(bounded.load());
  EXPECT_TRUE(own_push_seen.load());
  EXPECT_EQ(q.size(), kTotal);
  EXPECT_TRUE(q.size_at_least(kTotal));
  EXPECT_FALSE(q.size_at_least(kTotal + 1));
  std::size_t popped = 0;
  while (q.pop()) ++popped;
  EXPECT_EQ(popped, kTotal);
  EXPECT_EQ(q.size(), 0u);
}

// The unbounded mailbox under contention: senders on four threads while the
// owner dequeues; size() returns to zero and every envelope came out once.
TEST(UnboundedMailboxConcurrency, SendersAndOwnerAgreeOnEveryEnvelope) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kProducers = 4;
  constexpr int kPerProducer = 20000;
  UnboundedMailbox box;
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&box, p] {
      for (int i = 0; i < kPerProducer; ++i)
        box.enqueue(Envelope{Message(p * kPerProducer + i), {}, {}, 0});
    });
  }
  std::vector<bool> seen(kProducers * kPerProducer, false);
  int received = 0;
  while (received < kProducers * kPerProducer) {
    auto e = box.dequeue();
    if (!e) continue;
    const int v = e->message.get<int>();
    ASSERT_FALSE(seen[v]) << "duplicate " << v;
    seen[v] = true;
    ++received;
  }
  for (auto& t : producers) t.join();
  EXPECT_EQ(box.size(), 0u);
  EXPECT_FALSE(box.size_at_least(1));
}

// Blocks freed on one thread serve allocations on another (the hand-over a
// message makes), and every size class round-trips.
TEST(BlockPoolConcurrency, BlocksCrossThreadsAndSizeClasses) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  constexpr int kBlocks = 10000;
  for (std::size_t bytes : {8u, 64u, 100u, 200u, 256u}) {
    std::vector<void*> blocks(kBlocks);
    std::thread producer([&] {
      for (auto& b : blocks) {
        b = detail::allocate_block(bytes);
        std::memset(b, 0xab, bytes);
      }
    });
    producer.join();
    std::thread consumer([&] {
      for (auto* b : blocks) detail::deallocate_block(b, bytes);
    });
    consumer.join();
    for (auto& b : blocks) {
      b = detail::allocate_block(bytes);
      std::memset(b, 0xcd, bytes);
    }
    for (auto* b : blocks) detail::deallocate_block(b, bytes);
  }
  detail::release_idle_blocks();
}

}  // namespace
}  // namespace mailroom
