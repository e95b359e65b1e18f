// PriorityStore: rings per distinct priority, ladders past kMaxBuckets, the
// same order either way — checked against a brute-force model under random
// operations, with few and with many distinct priorities.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "mailroom/detail/priority_store.hpp"

namespace mailroom::detail {
namespace {

using Key = PriorityStore::Key;

struct ModelEntry {
  Key key;
  bool droppable;
};

int value_of(const Envelope& e) {
  return e.message.get<int>();
}

// The model: a vector kept sorted by key; values are the sequence numbers.
class Model {
 public:
  void insert(Key key, bool droppable) {
    auto at = std::upper_bound(entries_.begin(), entries_.end(), key,
                               [](const Key& k, const ModelEntry& e) { return k < e.key; });
    entries_.insert(at, {key, droppable});
  }
  std::optional<int> pop_front() {
    if (entries_.empty()) return std::nullopt;
    const int v = static_cast<int>(entries_.front().key.sequence);
    entries_.erase(entries_.begin());
    return v;
  }
  std::optional<int> take_last_droppable() {
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (!it->droppable) continue;
      const int v = static_cast<int>(it->key.sequence);
      entries_.erase(std::next(it).base());
      return v;
    }
    return std::nullopt;
  }
  std::vector<int> drain() {
    std::vector<int> out;
    for (const auto& e : entries_) out.push_back(static_cast<int>(e.key.sequence));
    entries_.clear();
    return out;
  }
  std::size_t size() const { return entries_.size(); }
  std::uint64_t front_epoch() const { return entries_.front().key.epoch; }

 private:
  std::vector<ModelEntry> entries_;
};

// `insert_percent` of the operations insert (pops and removals from the back
// share most of the rest); with `drains` about one in a hundred empties the store.
void run_random(std::size_t distinct, unsigned seed, bool stops, bool& saw_tree,
                int insert_percent = 55, bool drains = true) {
  std::mt19937 rng(seed);
  PriorityStore store;
  Model model;
  std::uint64_t sequence = 0, epoch = 0;
  for (int step = 0; step < 20000; ++step) {
    const int op = static_cast<int>(rng() % 100);
    if (op < insert_percent) {
      const double priority = static_cast<double>(rng() % distinct);
      const bool droppable = rng() % 10 != 0;
      const Key key{epoch, priority, sequence};
      store.insert(key, {Envelope{Message(static_cast<int>(sequence)), {}, {}, 0}, droppable});
      model.insert(key, droppable);
      ++sequence;
    } else if (op < 85) {
      auto got = store.pop_front();
      auto want = model.pop_front();
      ASSERT_EQ(got.has_value(), want.has_value());
      if (got) ASSERT_EQ(value_of(*got), *want) << "step " << step;
    } else if (op < 95) {
      auto got = store.take_last_droppable();
      auto want = model.take_last_droppable();
      ASSERT_EQ(got.has_value(), want.has_value());
      if (got) {
        ASSERT_EQ(value_of(got->second), *want);
        ASSERT_EQ(got->first.sequence, static_cast<std::uint64_t>(*want));
      }
    } else if (op < 97) {
      if (stops) epoch += 2;  // a stop: later arrivals go behind everything queued
    } else if (op < 98 && drains) {
      std::vector<int> got;
      for (auto& e : store.drain()) got.push_back(value_of(e));
      ASSERT_EQ(got, model.drain());
    }
    saw_tree = saw_tree || store.uses_tree();
    ASSERT_EQ(store.size(), model.size());
    if (model.size() > 0) {
      ASSERT_EQ(store.front_epoch(), model.front_epoch());
    }
  }
  std::vector<int> got;
  for (auto& e : store.drain()) got.push_back(value_of(e));
  ASSERT_EQ(got, model.drain());
  EXPECT_FALSE(store.uses_tree());
}

TEST(PriorityStore, FewPrioritiesMatchTheModelAndStayInRings) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    bool saw_tree = false;
    run_random(16, seed, false, saw_tree);
    EXPECT_FALSE(saw_tree) << "16 distinct priorities never need the tree";
    run_random(16, seed, true, saw_tree);  // stops add epochs: more buckets, same order
  }
}

TEST(PriorityStore, DeepBucketsMatchTheModelAcrossSegments) {
  // Thousands per bucket (each ring spans many segments), one in ten not
  // droppable, so removals from the back walk past kept entries and shift
  // across segment boundaries.
  for (unsigned seed = 1; seed <= 3; ++seed) {
    bool saw_tree = false;
    run_random(3, seed, false, saw_tree, 70, false);
    EXPECT_FALSE(saw_tree);
  }
}

TEST(PriorityStore, ManyPrioritiesSwitchToTheTreeAndBackInTheSameOrder) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    bool saw_tree = false;
    run_random(100000, seed, true, saw_tree);  // ladders
    EXPECT_TRUE(saw_tree) << "random doubles should have crossed kMaxBuckets";
  }
}

// Ties stay FIFO across the switch: equal priorities keep arrival order.
constexpr std::size_t kSpread = 3 * PriorityStore::kMaxBuckets;

TEST(PriorityStore, TiesStayFifoAcrossTheSwitch) {
  PriorityStore store;
  std::uint64_t sequence = 0;
  for (int round = 0; round < 3; ++round) {
    for (std::size_t p = 0; p < kSpread; ++p) {
      store.insert(Key{0, static_cast<double>(p % 3 == 0 ? 0 : p), sequence},
                   {Envelope{Message(static_cast<int>(sequence)), {}, {}, 0}, true});
      ++sequence;
    }
  }
  ASSERT_TRUE(store.uses_tree());
  int last_zero = -1;
  double last_priority = -1;
  for (auto& e : store.drain()) {
    const int v = value_of(e);
    const std::size_t p = static_cast<std::size_t>(v) % kSpread;
    const double priority = p % 3 == 0 ? 0 : static_cast<double>(p);
    EXPECT_GE(priority, last_priority);
    if (priority == 0) {
      EXPECT_GT(v, last_zero);
      last_zero = v;
    }
    last_priority = priority;
  }
}

}  // namespace
}  // namespace mailroom::detail
