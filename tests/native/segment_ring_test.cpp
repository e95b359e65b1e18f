// SegmentRing (a priority bucket's FIFO over pooled segments) against a
// std::deque model under random pushes, pops and take_last_if, with backlogs
// that cross many segment boundaries; every value constructed is destroyed
// exactly once, and the pool keeps at most kKeep segments.
#include "mailroom/detail/segment_ring.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <random>

namespace mailroom::detail {
namespace {

// Counts live instances, so a leak or a double destruction shows.
struct Counted {
  static inline long live = 0;
  int value = -1;
  bool keep = false;  // plays "not droppable"
  Counted(int v, bool k) : value(v), keep(k) { ++live; }
  Counted(Counted&& other) noexcept : value(other.value), keep(other.keep) {
    other.value = -2;  // moved-from: a read of it shows in the comparisons
    ++live;
  }
  Counted& operator=(Counted&& other) noexcept {
    value = other.value;
    keep = other.keep;
    other.value = -2;
    return *this;
  }
  ~Counted() { --live; }
};

using Ring = SegmentRing<Counted>;
constexpr std::size_t kItems = Ring::kItems;

void run(unsigned seed, int push_percent, int steps) {
  std::mt19937 rng(seed);
  SegmentPool<Counted> pool;
  Ring ring;
  std::deque<Counted> model;
  int next = 0;
  for (int step = 0; step < steps; ++step) {
    const int op = static_cast<int>(rng() % 100);
    if (op < push_percent) {
      const bool keep = rng() % 4 == 0;
      ring.push_back(pool, Counted(next, keep));
      model.emplace_back(next, keep);
      ++next;
    } else if (op < 90) {
      if (model.empty()) {
        ASSERT_TRUE(ring.empty());
        continue;
      }
      Counted got = ring.pop_front(pool);
      ASSERT_EQ(got.value, model.front().value) << "step " << step;
      model.pop_front();
    } else {
      auto got = ring.take_last_if(pool, [](const Counted& c) { return !c.keep; });
      auto want = model.end();
      for (auto it = model.end(); it != model.begin();) {
        if (!(--it)->keep) {
          want = it;
          break;
        }
      }
      ASSERT_EQ(got.has_value(), want != model.end()) << "step " << step;
      if (got) {
        ASSERT_EQ(got->value, want->value) << "step " << step;
        model.erase(want);
      }
    }
    ASSERT_EQ(ring.size(), model.size());
    ASSERT_LE(pool.kept(), SegmentPool<Counted>::kKeep);
  }
  // What is left comes out in order.
  while (!model.empty()) {
    ASSERT_EQ(ring.pop_front(pool).value, model.front().value);
    model.pop_front();
  }
  EXPECT_TRUE(ring.empty());
}

TEST(SegmentRing, MatchesADequeWhileTheBacklogGrows) {
  // 60% pushes: the backlog climbs to thousands, across many segments.
  for (unsigned seed = 1; seed <= 4; ++seed) run(seed, 60, 40000);
  EXPECT_EQ(Counted::live, 0);
}

TEST(SegmentRing, MatchesADequeWhileItFillsAndEmpties) {
  // Balanced: the ring empties often, handing its segment back and taking one again.
  for (unsigned seed = 1; seed <= 4; ++seed) run(seed, 45, 40000);
  EXPECT_EQ(Counted::live, 0);
}

TEST(SegmentRing, TakeLastShiftsAcrossSegmentBoundaries) {
  SegmentPool<Counted> pool;
  Ring ring;
  // The droppable value sits two segments before the tail, every later one is kept.
  const int n = static_cast<int>(3 * kItems + 5);
  const int victim = static_cast<int>(kItems - 3);
  for (int i = 0; i < n; ++i) ring.push_back(pool, Counted(i, i != victim));
  auto got = ring.take_last_if(pool, [](const Counted& c) { return !c.keep; });
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->value, victim);
  EXPECT_FALSE(ring.take_last_if(pool, [](const Counted& c) { return !c.keep; }).has_value());
  ASSERT_EQ(ring.size(), static_cast<std::size_t>(n - 1));
  for (int i = 0; i < n; ++i) {
    if (i == victim) continue;
    EXPECT_EQ(ring.pop_front(pool).value, i);
  }
  EXPECT_TRUE(ring.empty());
}

TEST(SegmentRing, EmptiedSegmentsAreReusedAndTheRestFreed) {
  {
    SegmentPool<Counted> pool;
    Ring ring;
    for (int i = 0; i < static_cast<int>(40 * kItems); ++i) ring.push_back(pool, Counted(i, false));
    while (!ring.empty()) ring.pop_front(pool);
    // 40 segments emptied: the pool keeps kKeep of them, the rest went to the heap.
    EXPECT_EQ(pool.kept(), SegmentPool<Counted>::kKeep);
    for (int i = 0; i < static_cast<int>(3 * kItems); ++i) ring.push_back(pool, Counted(i, false));
    EXPECT_EQ(pool.kept(), SegmentPool<Counted>::kKeep - 3) << "pushes take pooled segments";
    // A ring destroyed with values in it destroys them (checked by Counted::live below).
    Ring moved(std::move(ring));
    EXPECT_TRUE(ring.empty());
    EXPECT_EQ(moved.size(), 3 * kItems);
  }
  EXPECT_EQ(Counted::live, 0);
}

}  // namespace
}  // namespace mailroom::detail
