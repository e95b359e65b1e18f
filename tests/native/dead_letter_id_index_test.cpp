// The dead-letter ring's id -> order-key table (an open-addressing table with
// backward-shift deletion): after any sequence of inserts, overwrites and
// erases it answers exactly as a std::unordered_map does.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <unordered_map>
#include <vector>

// A private core header (core/src), tested directly: the queue-level tests
// cannot reach the probe-run edge cases (wrap-around, shifts across the end).
#include "../../core/src/deadletters/id_index.hpp"

namespace mailroom::detail {
namespace {

void expect_same(IdIndex& index, const std::unordered_map<std::uint64_t, std::uint64_t>& model,
                 std::uint64_t max_id) {
  ASSERT_EQ(index.size(), model.size());
  for (std::uint64_t id = 0; id <= max_id; ++id) {
    const std::uint64_t* found = index.find(id);
    auto it = model.find(id);
    if (it == model.end()) {
      EXPECT_EQ(found, nullptr) << "id " << id;
    } else {
      ASSERT_NE(found, nullptr) << "id " << id;
      EXPECT_EQ(*found, it->second) << "id " << id;
    }
  }
}

// Random inserts, overwrites and erases over a small id range (long probe
// runs, runs wrapping past the end of the table) match the model throughout.
TEST(DeadLetterIdIndex, MatchesAHashMapUnderRandomInsertsOverwritesAndErases) {
  std::mt19937_64 rng(20261201);
  for (std::uint64_t max_id : {40ull, 300ull, 5000ull}) {
    IdIndex index;
    std::unordered_map<std::uint64_t, std::uint64_t> model;
    std::uniform_int_distribution<std::uint64_t> pick(0, max_id);
    for (int step = 0; step < 20000; ++step) {
      const std::uint64_t id = pick(rng);
      if (rng() % 3 == 0) {
        index.erase(id);
        model.erase(id);
      } else {
        const std::uint64_t key = rng();
        index.set(id, key);
        model[id] = key;
      }
      if (step % 997 == 0) expect_same(index, model, max_id);
    }
    expect_same(index, model, max_id);
  }
}

// The ring's pattern: ids in capture order, the oldest erased first (eviction),
// a few from the middle (replays); everything else stays findable.
TEST(DeadLetterIdIndex, KeepsEveryLiveIdThroughEvictionOfTheOldest) {
  IdIndex index;
  std::unordered_map<std::uint64_t, std::uint64_t> model;
  for (std::uint64_t id = 1; id <= 100000; ++id) {
    index.set(id, id * 7);
    model[id] = id * 7;
    if (id > 1000) {
      index.erase(id - 1000);
      model.erase(id - 1000);
    }
    if (id % 17 == 0) {
      index.erase(id - 3);
      model.erase(id - 3);
    }
  }
  expect_same(index, model, 100001);
}

// A full ring of 100,000: the live window sits at home in a large table while
// its oldest id is erased at every capture, and replayed ids come back into
// it with their old numbers (inserted out of order); everything live stays
// findable and nothing erased comes back.
TEST(DeadLetterIdIndex, SlidesALargeWindowWithReturningIds) {
  IdIndex index;
  std::unordered_map<std::uint64_t, std::uint64_t> model;
  constexpr std::uint64_t kWindow = 100000;
  std::vector<std::uint64_t> away;  // erased from the middle, to come back
  for (std::uint64_t id = 1; id <= 3 * kWindow; ++id) {
    index.set(id, id + 1);
    model[id] = id + 1;
    if (id > kWindow && model.count(id - kWindow) != 0) {
      index.erase(id - kWindow);
      model.erase(id - kWindow);
    }
    if (id % 101 == 0) {
      index.erase(id - 50);
      model.erase(id - 50);
      away.push_back(id - 50);
    }
    if (id % 203 == 0 && !away.empty()) {
      const std::uint64_t back = away.back();
      away.pop_back();
      index.set(back, back * 3);
      model[back] = back * 3;
    }
  }
  expect_same(index, model, 3 * kWindow + 1);
}

// clear() forgets everything, and the table works again afterwards.
TEST(DeadLetterIdIndex, ClearForgetsEveryIdAndTheTableIsUsableAfterwards) {
  IdIndex index;
  for (std::uint64_t id = 1; id <= 1000; ++id) index.set(id, id);
  index.clear();
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find(5), nullptr);
  index.set(5, 50);
  ASSERT_NE(index.find(5), nullptr);
  EXPECT_EQ(*index.find(5), 50u);
}

// The empty-cell marker is refused as an id rather than silently lost.
TEST(DeadLetterIdIndex, RefusesTheReservedId) {
  IdIndex index;
  EXPECT_THROW(index.set(~std::uint64_t{0}, 1), std::out_of_range);
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find(~std::uint64_t{0}), nullptr);
}

}  // namespace
}  // namespace mailroom::detail
