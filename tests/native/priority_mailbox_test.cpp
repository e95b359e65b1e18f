#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "mailroom/errors.hpp"
#include "mailroom/priority_mailbox.hpp"

namespace mailroom {
namespace {

// A message is "<kind>:<text>"; the kind picks the priority from a table.
Envelope env(std::string text) {
  return Envelope{Message(std::move(text)), {}, {}, 0};
}

std::string kind_of(const Envelope& e) {
  const std::string& text = e.message.get<std::string>();
  return text.substr(0, text.find(':'));
}

const std::map<std::string, double> kRanks = {
    {"urgent", 0},
    {"normal", 5},
    {"bulk", 10},
    {"first", -std::numeric_limits<double>::infinity()},
    {"last", std::numeric_limits<double>::infinity()},
    {"nan", std::numeric_limits<double>::quiet_NaN()},
};

double rank_table(const Envelope& e) {
  auto it = kRanks.find(kind_of(e));
  if (it == kRanks.end()) throw std::out_of_range("no rank for " + kind_of(e));
  return it->second;
}

using Strings = std::vector<std::string>;

struct DropLog {
  Strings seen;
  DropObserver observer() {
    return [this](DropReason reason, const Envelope& e) {
      seen.push_back(std::string(to_string(reason)) + ":" + e.message.get<std::string>());
    };
  }
};

PriorityMailboxOptions ranked() {
  return PriorityMailboxOptions::create().with_priority_for(rank_table);
}

PriorityMailbox bounded(double capacity, OverflowPolicy policy, DropLog* log = nullptr) {
  auto options = ranked().with_capacity(capacity).with_overflow(policy);
  if (log) options.with_on_drop(log->observer());
  return PriorityMailbox(std::move(options));
}

void send(MessageQueue& box, std::initializer_list<const char*> texts) {
  for (const char* text : texts) box.enqueue(env(text));
}

std::vector<Envelope> batch(std::initializer_list<const char*> texts) {
  std::vector<Envelope> out;
  for (const char* text : texts) out.push_back(env(text));
  return out;
}

Strings dequeue_all(MessageQueue& box) {
  Strings out;
  while (auto e = box.dequeue()) out.push_back(e->message.get<std::string>());
  return out;
}

// Seed example: bulk, normal, urgent are processed urgent → normal → bulk.
TEST(PriorityMailbox, LowerNumbersComeFirst) {
  PriorityMailbox box(ranked());
  send(box, {"bulk:batch import row 1", "normal:user login", "urgent:page-out: disk full"});
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:page-out: disk full", "normal:user login",
                                       "bulk:batch import row 1"}));
}

// Equal priorities keep their send order.
TEST(PriorityMailbox, TiesAreFifo) {
  PriorityMailbox box(ranked());
  send(box, {"normal:1", "bulk:1", "normal:2", "urgent:1", "normal:3", "bulk:2"});
  EXPECT_EQ(dequeue_all(box),
            (Strings{"urgent:1", "normal:1", "normal:2", "normal:3", "bulk:1", "bulk:2"}));
}

// Against a model (stable sort by priority) over many random ranks, drained in one go.
TEST(PriorityMailbox, MatchesAStableSortOfTheArrivals) {
  std::mt19937 random(42);
  std::uniform_int_distribution<int> rank(0, 20);
  PriorityMailbox box(PriorityMailboxOptions::create().with_priority_for([](const Envelope& e) {
    return static_cast<double>(e.message.get<std::pair<int, int>>().first);
  }));
  std::vector<std::pair<int, int>> model;
  for (int i = 0; i < 2000; ++i) {
    model.emplace_back(rank(random), i);
    box.enqueue(Envelope{Message(model.back()), {}, {}, 0});
  }
  std::stable_sort(model.begin(), model.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<int, int>> drained;
  for (const Envelope& e : box.drain()) drained.push_back(e.message.get<std::pair<int, int>>());
  EXPECT_EQ(drained, model);
  EXPECT_EQ(box.size(), 0u);
}

// Full under drop-lowest-priority: a more important arrival sheds the least important queued one
// (drop-head).
TEST(PriorityMailbox, DropLowestPriorityShedsTheLeastImportantQueued) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropLowestPriority, &log);
  send(box, {"bulk:1", "normal:1", "urgent:1"});
  EXPECT_EQ(box.dropped_count(), 1u);
  EXPECT_EQ(log.seen, (Strings{"drop-head:bulk:1"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:1", "normal:1"}));
}

// Full under drop-lowest-priority: an arrival that is itself the least important is the one shed
// (drop-new).
TEST(PriorityMailbox, DropLowestPriorityShedsTheArrivalWhenItRanksLast) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropLowestPriority, &log);
  send(box, {"urgent:1", "normal:1", "bulk:1"});
  EXPECT_EQ(log.seen, (Strings{"drop-new:bulk:1"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:1", "normal:1"}));
}

// On a tie with the least important, the arrival (newest) is shed, by identity, not by equal value.
TEST(PriorityMailbox, DropLowestPriorityShedsTheArrivalOnATieEvenWithAnEqualValue) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropLowestPriority, &log);
  send(box, {"urgent:1", "bulk:same", "bulk:same"});
  EXPECT_EQ(log.seen, (Strings{"drop-new:bulk:same"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:1", "bulk:same"}));
}

// drop-new discards the arrival whatever its priority.
TEST(PriorityMailbox, DropNewDiscardsTheArrival) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropNew, &log);
  send(box, {"bulk:1", "bulk:2", "urgent:1"});
  EXPECT_EQ(log.seen, (Strings{"drop-new:urgent:1"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"bulk:1", "bulk:2"}));
}

// With a capacity and no policy the default is reject: it throws and counts nothing.
TEST(PriorityMailbox, RejectIsTheDefaultOnceBoundedAndCountsNothing) {
  PriorityMailbox box(ranked().with_capacity(1));
  EXPECT_EQ(box.overflow(), std::optional<OverflowPolicy>(OverflowPolicy::kReject));
  send(box, {"bulk:1"});
  try {
    box.enqueue(env("urgent:1"));
    FAIL() << "expected MailboxFullError";
  } catch (const MailboxFullError& error) {
    EXPECT_EQ(error.path(), "");  // the owning actor adds its path
    EXPECT_EQ(error.capacity(), 1u);
  }
  EXPECT_EQ(box.dropped_count(), 0u);
  EXPECT_EQ(dequeue_all(box), (Strings{"bulk:1"}));
}

// A throwing priority function or NaN ranks at kUnrankablePriority: after every ranked message,
// FIFO among themselves.
TEST(PriorityMailbox, UnrankableMessagesGoLastInArrivalOrder) {
  std::vector<std::string> errors;
  PriorityMailbox box(
      ranked().with_on_priority_error([&](std::exception_ptr error, const Envelope& e) {
        try {
          std::rethrow_exception(error);
        } catch (const std::exception& caught) {
          errors.push_back(e.message.get<std::string>() + " / " + caught.what());
        }
      }));
  send(box, {"poison:1", "bulk:1", "nan:1", "urgent:1", "poison:2"});
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:1", "bulk:1", "poison:1", "nan:1", "poison:2"}));
  EXPECT_EQ(errors, (Strings{"poison:1 / no rank for poison",
                             "nan:1 / priorityFor returned NaN, which cannot be ranked",
                             "poison:2 / no rank for poison"}));
  EXPECT_EQ(box.rank_of(env("poison:3")), kUnrankablePriority);
  EXPECT_EQ(kUnrankablePriority, 9007199254740991.0);
}

// -infinity ranks ahead of everything; +infinity behind everything, even the unrankable.
TEST(PriorityMailbox, InfinitiesAreValidRanks) {
  PriorityMailbox box(ranked());
  send(box, {"last:1", "poison:1", "bulk:1", "first:1", "last:2", "first:2"});
  EXPECT_EQ(dequeue_all(box),
            (Strings{"first:1", "first:2", "bulk:1", "poison:1", "last:1", "last:2"}));
}

// A signal bypasses the capacity under every policy and takes its priority position.
TEST(PriorityMailbox, SignalsBypassTheCapacityAndTakeTheirPosition) {
  for (auto policy :
       {OverflowPolicy::kDropLowestPriority, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    PriorityMailbox box = bounded(2, policy);
    send(box, {"bulk:1", "bulk:2"});
    box.enqueue_signal(env("normal:terminated"));
    EXPECT_EQ(box.dropped_count(), 0u) << to_string(policy);
    EXPECT_EQ(dequeue_all(box), (Strings{"normal:terminated", "bulk:1", "bulk:2"}))
        << to_string(policy);
  }
}

// A signal ranked last is never the one shed: the least important droppable message goes instead.
TEST(PriorityMailbox, SignalsAreNeverShed) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropLowestPriority, &log);
  box.enqueue_signal(env("last:terminated"));
  send(box, {"normal:1", "bulk:1", "urgent:1"});
  EXPECT_EQ(log.seen, (Strings{"drop-new:bulk:1", "drop-head:normal:1"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:1", "last:terminated"}));
}

// Unstash re-ranks: each envelope rejoins its tier, behind the equals already queued.
TEST(PriorityMailbox, PrependUserReRanksEachEnvelope) {
  PriorityMailbox box(ranked());
  send(box, {"urgent:queued", "bulk:queued"});
  box.prepend(batch({"bulk:stashed", "urgent:stashed", "normal:stashed"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:queued", "urgent:stashed", "normal:stashed",
                                       "bulk:queued", "bulk:stashed"}));
}

// Unstash obeys the capacity: under drop-lowest-priority the least important are shed.
TEST(PriorityMailbox, PrependUserObeysTheCapacity) {
  DropLog log;
  PriorityMailbox box = bounded(2, OverflowPolicy::kDropLowestPriority, &log);
  send(box, {"normal:queued"});
  box.prepend(batch({"bulk:stashed", "urgent:stashed"}));
  EXPECT_EQ(log.seen, (Strings{"drop-head:bulk:stashed"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:stashed", "normal:queued"}));
}

// Under reject an unstash that does not fit throws before inserting anything.
TEST(PriorityMailbox, PrependUserUnderRejectIsAllOrNothing) {
  PriorityMailbox box = bounded(2, OverflowPolicy::kReject);
  send(box, {"normal:queued"});
  EXPECT_THROW(box.prepend(batch({"bulk:stashed", "urgent:stashed"})), MailboxFullError);
  EXPECT_EQ(box.size(), 1u);
  EXPECT_EQ(box.dropped_count(), 0u);
  box.prepend(batch({"urgent:stashed"}));
  EXPECT_EQ(dequeue_all(box), (Strings{"urgent:stashed", "normal:queued"}));
}

// describe(): kind "priority"; capacity and policy only when bounded.
TEST(PriorityMailbox, DescribesItselfAsPriority) {
  const MailboxDescription unbounded = PriorityMailbox(ranked()).describe();
  EXPECT_EQ(unbounded.kind, "priority");
  EXPECT_FALSE(unbounded.capacity.has_value());
  EXPECT_FALSE(unbounded.overflow.has_value());
  const MailboxDescription capped = PriorityMailbox(ranked()
                                                        .with_capacity(5)
                                                        .with_overflow("drop-lowest-priority")
                                                        .with_dead_letter_drops(true))
                                        .describe();
  EXPECT_EQ(capped.capacity, std::optional<std::size_t>(5));
  EXPECT_EQ(capped.overflow, std::optional<OverflowPolicy>(OverflowPolicy::kDropLowestPriority));
  EXPECT_TRUE(capped.dead_letter_drops);
}

}  // namespace
}  // namespace mailroom
