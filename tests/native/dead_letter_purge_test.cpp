// Purge (DeadLetterQueue::remove) and quarantine release: a named outcome per
// id, the change feed, and the journal records a restart folds.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/memory_queue_harness.hpp"

namespace mailroom {
namespace {

using testing::FakeJournal;
using testing::FakeReplayTarget;
using Mode = FakeReplayTarget::Mode;
using Harness = testing::MemoryQueueHarness;

std::vector<std::uint64_t> ids_of(DeadLetterQueue& queue) {
  std::vector<std::uint64_t> out;
  for (const auto& e : queue.list()) out.push_back(e.id);
  return out;
}

// A persistent queue over a journal that outlives it (a second one is a restart).
struct Persistent {
  explicit Persistent(std::shared_ptr<FakeJournal> j, std::uint32_t max_replays = 2)
      : journal(std::move(j)) {
    codecs.add<std::string>(
        "string", [](const std::string& s) { return nlohmann::json(s); },
        [](const nlohmann::json& j) { return j.get<std::string>(); });
    DeadLetterQueueSettings s = DeadLetterQueueOptions::create()
                                    .with_store("persistent")
                                    .with_max_entries(100)
                                    .with_max_replays(max_replays)
                                    .resolve(nullptr, "shop");
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = journal;
    d.now_ms = [] { return 1000; };
    d.codecs = &codecs;
    queue = std::make_unique<DeadLetterQueue>(s, d);
    target.set_sink(queue.get());
  }
  void capture(std::string text, std::string recipient) {
    queue->capture(DeadLetter{Message(std::move(text)), {}, {}, std::move(recipient), "", 0});
  }
  std::vector<std::string> kinds() {
    std::vector<std::string> out;
    for (const auto& r : journal->records("mailroom-dead-letters-shop")) {
      auto j = nlohmann::json::parse(r.payload);
      out.push_back(j["k"].get<std::string>() + (j.contains("why") && j["k"] != "captured"
                                                     ? ":" + j["why"].get<std::string>()
                                                     : ""));
    }
    return out;
  }

  std::shared_ptr<FakeJournal> journal;
  PayloadCodecRegistry codecs;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

// Each id gets its own named outcome, in the order given; only the named entries leave.
TEST(DeadLetterPurge, RemoveAnswersEachIdAndTakesOnlyThoseEntries) {
  Harness h;
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  h.capture("c", "/user/c");
  const auto results = h.queue->remove({3, 42, 1, 3});
  EXPECT_EQ(results, (std::vector<RemoveResult>{{3, RemoveOutcome::kRemoved},
                                                {42, RemoveOutcome::kUnknownEntry},
                                                {1, RemoveOutcome::kRemoved},
                                                {3, RemoveOutcome::kUnknownEntry}}));
  EXPECT_EQ(ids_of(*h.queue), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(h.queue->stats().size, 1u);
  EXPECT_FALSE(h.queue->get(1).has_value());
  // A purged entry cannot be replayed any more.
  EXPECT_EQ(h.queue->replay(3).outcome, ReplayOutcome::kUnknownEntry);
}

// The change feed reports purged entries as removed with reason "purged".
TEST(DeadLetterPurge, ChangeFeedSaysPurged) {
  Harness h;
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  const std::uint64_t before = h.queue->revision();
  std::vector<std::uint64_t> heard;
  h.queue->add_change_listener([&](std::uint64_t r) { heard.push_back(r); });
  h.queue->remove({2});
  const DeadLetterChanges changes = h.queue->changes_since(before);
  ASSERT_EQ(changes.removed.size(), 1u);
  EXPECT_EQ(changes.removed[0].id, 2u);
  EXPECT_EQ(changes.removed[0].reason, DeadLetterRemoval::kPurged);
  EXPECT_EQ(heard.size(), 1u);
  // Nothing removed: no change, no notification.
  h.queue->remove({2, 9});
  EXPECT_EQ(heard.size(), 1u);
  EXPECT_EQ(to_string(DeadLetterRemoval::kPurged), "purged");
}

// A store that keeps nothing answers unknown-entry for every id.
TEST(DeadLetterPurge, StoreOffAnswersUnknownEntry) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMetrics;
  DeadLetterQueue queue(s, {});
  EXPECT_EQ(queue.remove({1, 2}), (std::vector<RemoveResult>{{1, RemoveOutcome::kUnknownEntry},
                                                             {2, RemoveOutcome::kUnknownEntry}}));
}

// A ReplayTarget whose delivery purges the entry being replayed (an operator
// racing a replay): the in-flight entry is not removed under the delivery.
class PurgingTarget final : public ReplayTarget {
 public:
  std::optional<ActorRef> resolve_user_actor(std::string_view) override { return actor; }
  std::string local_path(std::string_view path) const override { return std::string(path); }
  void deliver(const ActorRef&, Envelope envelope) override {
    during = queue->remove({envelope.replay_entry});
  }
  ActorRef actor = FakeReplayTarget().spawn("/user/a");
  DeadLetterQueue* queue = nullptr;
  std::vector<RemoveResult> during;
};

TEST(DeadLetterPurge, AnEntryBeingReplayedAnswersInFlight) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMemory;
  PurgingTarget target;
  DeadLetterQueue::Dependencies d;
  d.target = &target;
  DeadLetterQueue queue(s, d);
  target.queue = &queue;
  queue.capture(DeadLetter{Message(std::string("m")), {}, {}, "/user/a", "", 0});
  EXPECT_EQ(queue.replay(1).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(target.during, (std::vector<RemoveResult>{{1, RemoveOutcome::kInFlight}}));
  EXPECT_EQ(to_string(RemoveOutcome::kInFlight), "in-flight");
  EXPECT_EQ(remove_outcome_from_string("removed"), RemoveOutcome::kRemoved);
  EXPECT_FALSE(remove_outcome_from_string("gone").has_value());
}

// Persistent: one "removed" tombstone marked purged per entry; a restart does not bring them back.
TEST(DeadLetterPurge, PurgeIsJournaledAndSurvivesARestart) {
  auto journal = std::make_shared<FakeJournal>();
  {
    Persistent first(journal);
    first.capture("one", "/user/a");
    first.capture("two", "/user/b");
    first.capture("three", "/user/c");
    first.queue->remove({1, 3, 7});
    EXPECT_EQ(first.kinds(), (std::vector<std::string>{"captured", "captured", "captured",
                                                       "removed:purged", "removed:purged"}));
  }
  Persistent second(journal);
  EXPECT_EQ(ids_of(*second.queue), (std::vector<std::uint64_t>{2}));
  // Ids continue after the highest ever used, purged ones included.
  second.capture("four", "/user/d");
  EXPECT_EQ(ids_of(*second.queue), (std::vector<std::uint64_t>{4, 2}));
}

// Release lifts a quarantine: the count is 0 again, replay works, and a restart keeps it released.
TEST(DeadLetterRelease, ReleaseResetsTheCountAndIsJournaled) {
  auto journal = std::make_shared<FakeJournal>();
  {
    Persistent first(journal, /*max_replays=*/1);
    first.target.spawn("/user/fragile", Mode::kDeadLetter);
    first.capture("poison", "/user/fragile");
    first.capture("fine", "/user/other");
    EXPECT_EQ(first.queue->replay(1).outcome, ReplayOutcome::kReplayed);  // came back, count 1
    ASSERT_TRUE(first.queue->get(1)->quarantined);
    EXPECT_EQ(first.queue->release(2), ReleaseOutcome::kNotQuarantined);
    EXPECT_EQ(first.queue->release(99), ReleaseOutcome::kUnknownEntry);
    const std::uint64_t before = first.queue->revision();
    EXPECT_EQ(first.queue->release(1), ReleaseOutcome::kReleased);
    EXPECT_EQ(first.queue->get(1)->replay_count, 0u);
    EXPECT_FALSE(first.queue->get(1)->quarantined);
    const DeadLetterChanges changes = first.queue->changes_since(before);
    ASSERT_EQ(changes.updated.size(), 1u);
    EXPECT_EQ(changes.updated[0].id, 1u);
    EXPECT_EQ(first.kinds().back(), "released");
  }
  Persistent second(journal, 1);
  ASSERT_TRUE(second.queue->get(1).has_value());
  EXPECT_EQ(second.queue->get(1)->replay_count, 0u);
  EXPECT_FALSE(second.queue->get(1)->quarantined);
  second.target.spawn("/user/fragile");
  EXPECT_EQ(second.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(to_string(ReleaseOutcome::kNotQuarantined), "not-quarantined");
  EXPECT_EQ(release_outcome_from_string("released"), ReleaseOutcome::kReleased);
}

}  // namespace
}  // namespace mailroom
