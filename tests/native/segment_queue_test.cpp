// SegmentQueue, the single-threaded build's unbounded FIFO (wasm uses it under
// every unbounded mailbox and system queue): FIFO across segment boundaries,
// exact sizes while filling and draining in any rhythm, every envelope field
// kept, and every value destroyed exactly once (popped or left at destruction).
#include <gtest/gtest.h>

#include <deque>
#include <memory>
#include <random>
#include <string>

#include "mailroom/detail/segment_queue.hpp"

namespace mailroom {
namespace {

constexpr std::size_t kItems = SegmentQueue<int>::kSegmentItems;

TEST(SegmentQueue, EnvelopesKeepEveryFieldThroughTheQueue) {
  SegmentQueue<Envelope, detail::EnvelopePacking> q;
  auto context = std::make_shared<const EnvelopeContext>(EnvelopeContext{"trace-1", {{"k", "v"}}});
  q.push(Envelope{Message(1), {}, {}, 0, false});
  q.push(Envelope{Message(std::string("two")), {}, context, 42, true});
  auto first = q.pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->message.get<int>(), 1);
  EXPECT_EQ(first->context, nullptr);
  EXPECT_FALSE(first->signal);
  auto second = q.pop();
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->message.get<std::string>(), "two");
  EXPECT_EQ(second->context, context);
  EXPECT_EQ(second->replay_entry, 42u);
  EXPECT_TRUE(second->signal);
  EXPECT_FALSE(q.pop().has_value());
  EXPECT_TRUE(q.empty_for_consumer());
}

// Random bursts of pushes and pops across many segment boundaries match a deque.
TEST(SegmentQueue, MatchesADequeThroughRandomBurstsAcrossSegments) {
  SegmentQueue<std::string> q;
  std::deque<std::string> model;
  std::mt19937 rng(7);
  int next = 0;
  for (int step = 0; step < 5000; ++step) {
    const std::size_t burst = rng() % (3 * kItems);
    if (rng() % 2 == 0) {
      for (std::size_t i = 0; i < burst; ++i) {
        q.push(std::to_string(next));
        model.push_back(std::to_string(next++));
      }
    } else {
      for (std::size_t i = 0; i < burst; ++i) {
        auto got = q.pop();
        ASSERT_EQ(got.has_value(), !model.empty());
        if (!got) break;
        ASSERT_EQ(*got, model.front()) << "step " << step;
        model.pop_front();
      }
    }
    ASSERT_EQ(q.size(), model.size());
    ASSERT_EQ(q.size_at_least(model.size()), true);
    ASSERT_EQ(q.size_at_least(model.size() + 1), false);
    ASSERT_EQ(q.empty_for_consumer(), model.empty());
  }
}

// Exactly kSegmentItems, then one more, then empty again: the boundary cases.
TEST(SegmentQueue, FillsAndEmptiesAtTheSegmentBoundary) {
  SegmentQueue<int> q;
  for (int round = 0; round < 3; ++round) {
    for (std::size_t i = 0; i <= kItems; ++i) q.push(static_cast<int>(i));
    for (std::size_t i = 0; i <= kItems; ++i) ASSERT_EQ(q.pop(), static_cast<int>(i));
    EXPECT_FALSE(q.pop().has_value());
    for (std::size_t i = 0; i < kItems; ++i) q.push(static_cast<int>(i));
    for (std::size_t i = 0; i < kItems; ++i) ASSERT_EQ(q.pop(), static_cast<int>(i));
    EXPECT_EQ(q.size(), 0u);
  }
}

// Drained segments are kept for the next burst, but never more than
// kMaxSpareSegments of them (a queue that once held a burst does not keep its
// memory), and trim() hands them all back.
TEST(SegmentQueue, KeepsABoundedPoolOfDrainedSegments) {
  constexpr std::size_t kMax = SegmentQueue<int>::kMaxSpareSegments;
  SegmentQueue<int> q;
  // 4 segments and one value: 4 used-up heads are kept, the last stays in place.
  for (std::size_t i = 0; i < 4 * kItems + 1; ++i) q.push(static_cast<int>(i));
  for (std::size_t i = 0; i < 4 * kItems + 1; ++i) ASSERT_EQ(q.pop(), static_cast<int>(i));
  EXPECT_EQ(q.spare_segments(), 4u);
  // A burst far larger than the pool: only kMax are kept after it drains.
  for (std::size_t i = 0; i < 10 * kMax * kItems; ++i) q.push(static_cast<int>(i));
  EXPECT_EQ(q.spare_segments(), 0u);  // the pool was used up first
  for (std::size_t i = 0; i < 10 * kMax * kItems; ++i) ASSERT_EQ(q.pop(), static_cast<int>(i));
  EXPECT_EQ(q.spare_segments(), kMax);
  // The next burst takes its segments from the pool.
  for (std::size_t i = 0; i < 3 * kItems; ++i) q.push(static_cast<int>(i));
  EXPECT_EQ(q.spare_segments(), kMax - 2);
  q.trim();
  EXPECT_EQ(q.spare_segments(), 0u);
  for (std::size_t i = 0; i < 3 * kItems; ++i) ASSERT_EQ(q.pop(), static_cast<int>(i));
  EXPECT_FALSE(q.pop().has_value());
}

// Each value is destroyed once: popped ones by their taker, the rest by the queue.
TEST(SegmentQueue, DestroysEveryValueExactlyOnce) {
  auto token = std::make_shared<int>(0);
  {
    SegmentQueue<std::shared_ptr<int>> q;
    for (std::size_t i = 0; i < 3 * kItems + 5; ++i) q.push(token);
    for (std::size_t i = 0; i < kItems + 2; ++i) q.pop();
    EXPECT_EQ(token.use_count(), static_cast<long>(2 * kItems + 3 + 1));
  }
  EXPECT_EQ(token.use_count(), 1);
}

}  // namespace
}  // namespace mailroom
