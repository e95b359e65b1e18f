// A bounded PriorityMailbox with drop-lowest-priority under random operations
// (tells at capacity, dequeues, death-notification signals, PoisonPills, and
// unstashing through prepend), against a reference model that is one sorted
// vector: after every step the message shed (and its reason, drop-new when it
// is the arrival itself) and every message dequeued must be the model's. Run
// with few distinct priorities (the store's buckets) and with random doubles
// past the bucket limit (its ladder queues, shed from the tail), at backlogs
// large enough that the ladder's rungs are cut from both ends.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#include "mailroom/priority_mailbox.hpp"

namespace mailroom {
namespace {

struct ModelEntry {
  std::uint64_t epoch;
  double priority;
  std::uint64_t sequence;
  int id;
  bool droppable;
  bool signal;
  bool operator<(const ModelEntry& o) const {
    if (epoch != o.epoch) return epoch < o.epoch;
    return priority < o.priority || (priority == o.priority && sequence < o.sequence);
  }
};

struct ModelDrop {
  DropReason reason;
  int id;
};

// The mailbox's contract, written the slow obvious way.
class Model {
 public:
  explicit Model(std::size_t capacity) : capacity_(capacity) {}

  std::optional<ModelDrop> tell(int id, double rank) { return offer(epoch_, id, rank, false); }
  void signal(int id, double rank) { insert(epoch_, rank, id, false, true); }
  void control(int id) {
    insert(epoch_ + 1, std::numeric_limits<double>::infinity(), id, false, true);
    epoch_ += 2;
  }
  std::optional<ModelEntry> dequeue() {
    if (entries_.empty()) return std::nullopt;
    ModelEntry front = entries_.front();
    entries_.erase(entries_.begin());
    return front;
  }
  // Unstashing: behind nothing queued before the first pending PoisonPill.
  std::vector<ModelDrop> prepend(const std::vector<std::pair<int, bool>>& stash,
                                 const std::vector<double>& ranks) {
    const std::uint64_t epoch = entries_.empty() ? epoch_ : entries_.front().epoch & ~1ull;
    std::vector<ModelDrop> drops;
    for (std::size_t i = 0; i < stash.size(); ++i) {
      if (stash[i].second) {
        insert(epoch, ranks[i], stash[i].first, false, true);
      } else if (auto drop = offer(epoch, stash[i].first, ranks[i], false)) {
        drops.push_back(*drop);
      }
    }
    return drops;
  }
  std::size_t size() const { return entries_.size(); }

 private:
  std::optional<ModelDrop> offer(std::uint64_t epoch, int id, double rank, bool signal) {
    const std::uint64_t arrival = insert(epoch, rank, id, true, signal);
    if (entries_.size() <= capacity_) return std::nullopt;
    // The least important droppable message, the arrival included.
    for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
      if (!it->droppable) continue;
      const ModelDrop drop{it->sequence == arrival ? DropReason::kDropNew : DropReason::kDropHead,
                           it->id};
      entries_.erase(std::next(it).base());
      return drop;
    }
    return std::nullopt;
  }
  std::uint64_t insert(std::uint64_t epoch, double rank, int id, bool droppable, bool signal) {
    const ModelEntry entry{epoch, rank, sequence_++, id, droppable, signal};
    entries_.insert(std::upper_bound(entries_.begin(), entries_.end(), entry), entry);
    return entry.sequence;
  }

  std::size_t capacity_;
  std::vector<ModelEntry> entries_;  // sorted
  std::uint64_t epoch_ = 0;
  std::uint64_t sequence_ = 0;
};

// A message's rank, from its id: `distinct` values, or (distinct == 0) a
// double from a hash, with one id in 64 tied with another and one in 8 at
// the same least important rank (a long FIFO of ties where shedding happens).
double rank_for(int id, unsigned distinct) {
  if (distinct > 0) return static_cast<double>(static_cast<unsigned>(id) * 7919u % distinct);
  if (id % 8 == 3) return 0.75;
  const int tied = id % 64 == 0 ? id / 64 : id;
  const auto x = static_cast<std::uint32_t>(tied) * 2654435761u;
  return static_cast<double>(x) / 4294967296.0 - 0.25;
}

void run_model(unsigned distinct, std::size_t capacity, unsigned seed, int steps) {
  std::vector<ModelDrop> drops;
  PriorityMailbox box(PriorityMailboxOptions::create()
                          .with_priority_for([distinct](const Envelope& e) {
                            return rank_for(e.message.get<int>(), distinct);
                          })
                          .with_capacity(static_cast<double>(capacity))
                          .with_overflow("drop-lowest-priority")
                          .with_on_drop([&drops](DropReason reason, const Envelope& e) {
                            drops.push_back({reason, e.message.get<int>()});
                          }));
  Model model(capacity);
  std::mt19937 rng(seed);
  int next_id = 0;
  std::vector<Envelope> stash;  // dequeued, to unstash later
  auto expect_drops = [&](const std::vector<ModelDrop>& want, int step) {
    ASSERT_EQ(drops.size(), want.size()) << "step " << step;
    for (std::size_t i = 0; i < want.size(); ++i) {
      ASSERT_EQ(drops[i].id, want[i].id) << "step " << step << ": shed the wrong message";
      ASSERT_EQ(drops[i].reason, want[i].reason) << "step " << step;
    }
    drops.clear();
  };
  for (int step = 0; step < steps; ++step) {
    const unsigned op = rng() % 1000;
    // Bursts of tells keep the mailbox at capacity, shedding on most of them.
    const std::size_t burst = op < 450 ? 1 + rng() % 64 : 1;
    if (op < 600) {
      std::vector<ModelDrop> want;
      for (std::size_t i = 0; i < burst; ++i) {
        const int id = next_id++;
        box.enqueue(Envelope{Message(id), {}, {}, 0});
        if (auto drop = model.tell(id, rank_for(id, distinct))) want.push_back(*drop);
      }
      expect_drops(want, step);
    } else if (op < 960) {
      const std::size_t n = 1 + rng() % 16;
      for (std::size_t i = 0; i < n; ++i) {
        auto got = box.dequeue();
        auto want = model.dequeue();
        ASSERT_EQ(got.has_value(), want.has_value()) << "step " << step;
        if (!got) break;
        ASSERT_EQ(got->message.get<int>(), want->id) << "step " << step << ": dequeue order";
        ASSERT_EQ(got->signal, want->signal);
        if (stash.size() < 8 && rng() % 8 == 0) stash.push_back(std::move(*got));
      }
    } else if (op < 975) {
      const int id = next_id++;
      Envelope e{Message(id), {}, {}, 0};
      box.enqueue_signal(std::move(e));
      model.signal(id, rank_for(id, distinct));
    } else if (op < 985) {
      const int id = next_id++;
      box.enqueue_control(Envelope{Message(id), {}, {}, 0});
      model.control(id);
    } else if (!stash.empty()) {
      std::vector<std::pair<int, bool>> shape;
      std::vector<double> ranks;
      for (const Envelope& e : stash) {
        shape.emplace_back(e.message.get<int>(), e.signal);
        ranks.push_back(rank_for(e.message.get<int>(), distinct));
      }
      box.prepend(std::move(stash));
      stash.clear();
      expect_drops(model.prepend(shape, ranks), step);
    }
    ASSERT_EQ(box.size(), model.size()) << "step " << step;
  }
  // What is left comes out in the model's order.
  while (auto want = model.dequeue()) {
    auto got = box.dequeue();
    ASSERT_TRUE(got.has_value());
    ASSERT_EQ(got->message.get<int>(), want->id);
  }
  EXPECT_FALSE(box.dequeue().has_value());
}

TEST(PriorityMailboxSheddingModel, FewPrioritiesShedTheModelsMessage) {
  for (unsigned seed = 1; seed <= 3; ++seed) run_model(5, 300, seed, 4000);
}

TEST(PriorityMailboxSheddingModel, RandomDoublesShedTheModelsMessage) {
  // Past 64 distinct ranks: the ladder queues, shed from the tail.
  for (unsigned seed = 1; seed <= 3; ++seed) run_model(0, 3000, seed, 3000);
}

TEST(PriorityMailboxSheddingModel, RandomDoublesAtADeepCapacity) {
  // Buckets of a few hundred in the ladder's first rung: cut into finer rungs.
  run_model(0, 20000, 9, 2500);
}

}  // namespace
}  // namespace mailroom
