// LadderQueue, the priority store's structure for many distinct priorities:
// the same order as a sorted model (bits, then sequence) through bursts that
// build and exhaust rungs, arrivals below, inside and above the sorted bottom,
// clustered and equal keys, removals from the tail, and the order-preserving
// map of doubles (infinities, -0.0 == 0.0).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <set>
#include <utility>

#include "mailroom/detail/ladder_queue.hpp"

namespace mailroom::detail {
namespace {

using Key = std::pair<std::uint64_t, std::uint64_t>;  // (bits, sequence)

TEST(LadderQueue, OrderedBitsPreserveTheOrderOfDoubles) {
  const double inf = std::numeric_limits<double>::infinity();
  const double values[] = {-inf, -1e300, -2.5, -1e-300, 0.0, 1e-300, 0.5, 1.0, 3e8, 1e300, inf};
  for (std::size_t i = 0; i + 1 < std::size(values); ++i) {
    EXPECT_LT(ordered_bits(values[i]), ordered_bits(values[i + 1])) << values[i];
    EXPECT_EQ(from_ordered_bits(ordered_bits(values[i])), values[i]);
  }
  EXPECT_EQ(ordered_bits(-0.0), ordered_bits(0.0));  // equal ranks stay FIFO ties
  EXPECT_LT(ordered_bits(inf), std::numeric_limits<std::uint64_t>::max());
}

// Keys from `draw`; a random mix of bursts of inserts, pops and tail removals,
// checked step by step against a std::set.
template <class Draw>
void run_against_model(unsigned seed, Draw draw, int steps) {
  std::mt19937_64 rng(seed);
  LadderQueue<std::uint64_t> ladder;  // the value is the sequence
  std::set<Key> model;
  std::uint64_t sequence = 0;
  for (int step = 0; step < steps; ++step) {
    const int op = static_cast<int>(rng() % 100);
    const std::size_t burst = 1 + rng() % (op < 5 ? 2000 : 40);
    if (op < 50 && model.size() < 5000) {
      for (std::size_t i = 0; i < burst; ++i) {
        const std::uint64_t bits = draw(rng, model);
        ladder.insert(bits, sequence, sequence);
        model.insert({bits, sequence});
        ++sequence;
      }
    } else if (op < 97) {
      for (std::size_t i = 0; i < burst; ++i) {
        auto got = ladder.pop_front();
        ASSERT_EQ(got.has_value(), !model.empty());
        if (!got) break;
        ASSERT_EQ(Key(got->bits, got->sequence), *model.begin()) << "step " << step;
        ASSERT_EQ(got->value, got->sequence);
        model.erase(model.begin());
      }
    } else {
      // Tail removal, skipping odd sequences (the "undroppable" ones).
      auto got = ladder.take_last_if([](std::uint64_t v) { return v % 2 == 0; });
      auto want = std::find_if(model.rbegin(), model.rend(),
                               [](const Key& k) { return k.second % 2 == 0; });
      ASSERT_EQ(got.has_value(), want != model.rend());
      if (got) {
        ASSERT_EQ(Key(got->bits, got->sequence), *want);
        model.erase(std::next(want).base());
      }
    }
    ASSERT_EQ(ladder.size(), model.size());
  }
  while (auto got = ladder.pop_front()) {
    ASSERT_EQ(Key(got->bits, got->sequence), *model.begin());
    model.erase(model.begin());
  }
  EXPECT_TRUE(model.empty());
}

TEST(LadderQueue, RandomDoublesMatchTheModel) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    run_against_model(
        seed,
        [](std::mt19937_64& rng, const std::set<Key>&) {
          return ordered_bits(std::uniform_real_distribution<double>(-1e6, 1e6)(rng));
        },
        1500);
  }
}

// Arrivals just above or below the current front (the "new minimum" pattern of
// a draining backlog), equal keys, and wide jumps (1e300, infinities).
TEST(LadderQueue, ClusteredEqualAndExtremeKeysMatchTheModel) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    run_against_model(
        seed,
        [](std::mt19937_64& rng, const std::set<Key>& model) {
          const double inf = std::numeric_limits<double>::infinity();
          switch (rng() % 6) {
            case 0:
              return ordered_bits(static_cast<double>(rng() % 4));  // few equal values
            case 1:
              return ordered_bits(rng() % 2 ? inf : -inf);
            case 2:
              return ordered_bits(rng() % 2 ? 1e300 : -1e300);
            case 3:
              if (!model.empty()) return model.begin()->first - rng() % 3;  // at the front
              return std::uint64_t{1} << 63;
            case 4:
              if (!model.empty()) return model.begin()->first + rng() % 1000;  // just above it
              return std::uint64_t{1} << 63;
            default:
              return ordered_bits(std::uniform_real_distribution<double>(0, 1)(rng));
          }
        },
        1500);
  }
}

// A long run of arrivals that each become the new front, popped one by one
// (what a steady-state benchmark with random keys drifts into), then one key.
TEST(LadderQueue, ManyEqualKeysStayFifoThroughBottomAndRungs) {
  LadderQueue<int> ladder;
  std::uint64_t sequence = 0;
  for (int i = 0; i < 5000; ++i) ladder.insert(ordered_bits(i % 97), sequence++, i);
  for (int i = 0; i < 2000; ++i) ladder.insert(ordered_bits(50), sequence++, 5000 + i);
  std::uint64_t last_bits = 0, last_sequence = 0;
  bool first = true;
  while (auto e = ladder.pop_front()) {
    if (!first) {
      ASSERT_TRUE(e->bits > last_bits || (e->bits == last_bits && e->sequence > last_sequence));
    }
    first = false;
    last_bits = e->bits;
    last_sequence = e->sequence;
    if (e->bits == ordered_bits(50)) ladder.insert(ordered_bits(50.5), sequence++, -1);
    if (ladder.size() > 20000) break;
  }
  EXPECT_TRUE(ladder.empty());
}

// A bounded mailbox at capacity, at depth: tens of thousands queued, bursts of
// arrivals each followed by as many removals from the tail (one value in 50
// not wanted, as signals are never shed) and some pops from the front. The
// keys crowd the top exponent (uniform doubles in [0, 1)) and one key in 16 is
// the same largest value, so the tail is a big single-key bucket at times, and
// the top, the highest rung's last bucket and the finer rungs cut from it all
// give up their largest entries: always the model's.
TEST(LadderQueue, TailRemovalsAtDepthMatchTheModel) {
  std::mt19937_64 rng(5);
  LadderQueue<std::uint64_t> ladder;
  std::set<Key> model;
  std::uint64_t sequence = 0;
  auto draw = [&rng]() {
    if (rng() % 16 == 0) return ordered_bits(2.0);
    return ordered_bits(std::uniform_real_distribution<double>(0, 1)(rng));
  };
  auto insert = [&](std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t bits = draw();
      ladder.insert(bits, sequence, sequence);
      model.insert({bits, sequence});
      ++sequence;
    }
  };
  auto wanted = [](std::uint64_t v) { return v % 50 != 0; };
  insert(40000);
  for (int round = 0; round < 3000; ++round) {
    const std::size_t burst = 1 + rng() % 30;
    insert(burst);
    const std::size_t removals = round % 500 < 250 ? burst : burst / 2;  // also let it grow
    for (std::size_t i = 0; i < removals; ++i) {
      auto got = ladder.take_last_if(wanted);
      auto want = std::find_if(model.rbegin(), model.rend(),
                               [&](const Key& k) { return wanted(k.second); });
      ASSERT_EQ(got.has_value(), want != model.rend());
      if (!got) break;
      ASSERT_EQ(Key(got->bits, got->sequence), *want) << "round " << round;
      ASSERT_EQ(got->value, got->sequence);
      model.erase(std::next(want).base());
    }
    for (std::size_t i = 0, n = rng() % 4; i < n; ++i) {
      auto got = ladder.pop_front();
      ASSERT_TRUE(got.has_value());
      ASSERT_EQ(Key(got->bits, got->sequence), *model.begin()) << "round " << round;
      model.erase(model.begin());
    }
    ASSERT_EQ(ladder.size(), model.size());
  }
  while (auto got = ladder.pop_front()) {
    ASSERT_EQ(Key(got->bits, got->sequence), *model.begin());
    model.erase(model.begin());
  }
  EXPECT_TRUE(model.empty());
}

// Values stay in the slab while their records move: each value comes back with
// its own key through spreads, refills and tail removals, freed slots are
// reused, and the values still queued when the ladder is destroyed are
// destroyed once (the test's references become the only owners again).
TEST(LadderQueue, ValuesFollowTheirKeysAndAreDestroyedOnce) {
  std::vector<std::shared_ptr<std::uint64_t>> owned;
  {
    LadderQueue<std::shared_ptr<std::uint64_t>> ladder;
    std::mt19937_64 rng(11);
    std::uint64_t sequence = 0;
    auto add = [&](std::size_t n) {
      for (std::size_t i = 0; i < n; ++i) {
        owned.push_back(std::make_shared<std::uint64_t>(sequence));
        ladder.insert(rng() >> 1, sequence++, owned.back());
      }
    };
    add(40000);  // past the slab's small chunks, into its huge-page regions
    for (int i = 0; i < 1000; ++i) {
      auto e = ladder.pop_front();
      ASSERT_TRUE(e.has_value());
      ASSERT_EQ(*e->value, e->sequence);
    }
    add(1500);  // into the freed slots
    for (int i = 0; i < 50; ++i) {
      auto e =
          ladder.take_last_if([](const std::shared_ptr<std::uint64_t>& v) { return *v % 3 == 0; });
      ASSERT_TRUE(e.has_value());
      ASSERT_EQ(*e->value, e->sequence);
      ASSERT_EQ(e->sequence % 3, 0u);
    }
    for (int i = 0; i < 500; ++i) {
      auto e = ladder.pop_front();
      ASSERT_TRUE(e.has_value());
      ASSERT_EQ(*e->value, e->sequence);
    }
    std::size_t queued = 0;
    for (const auto& v : owned) queued += v.use_count() == 2 ? 1 : 0;
    EXPECT_EQ(queued, ladder.size());
  }
  for (const auto& v : owned) EXPECT_EQ(v.use_count(), 1);
}

}  // namespace
}  // namespace mailroom::detail
