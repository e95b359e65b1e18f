// The dead-letter queue's change feed: revisions, captured / updated /
// removed since R, the bound of what it remembers, and change listeners.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/memory_queue_harness.hpp"

namespace mailroom {
namespace {

using testing::FakeReplayTarget;
using Mode = FakeReplayTarget::Mode;

using Harness = testing::MemoryQueueHarness;

std::vector<std::uint64_t> ids_of(const std::vector<DeadLetterEntry>& entries) {
  std::vector<std::uint64_t> out;
  for (const auto& e : entries) out.push_back(e.id);
  return out;
}

std::vector<std::string> removed_of(const DeadLetterChanges& changes) {
  std::vector<std::string> out;
  for (const auto& r : changes.removed) {
    out.push_back(std::to_string(r.id) + ":" + std::string(to_string(r.reason)));
  }
  return out;
}

// Each capture bumps the revision; changes since R list only what came after R, oldest first.
TEST(DeadLetterChanges, CapturesSinceARevisionInOrder) {
  Harness h;
  EXPECT_EQ(h.queue->revision(), 0u);
  h.capture("a", "/user/a");
  const std::uint64_t seen = h.queue->revision();
  h.capture("b", "/user/b");
  h.capture("c", "/user/c");
  const DeadLetterChanges changes = h.queue->changes_since(seen);
  EXPECT_TRUE(changes.complete);
  EXPECT_EQ(changes.since, seen);
  EXPECT_EQ(changes.revision, h.queue->revision());
  EXPECT_EQ(ids_of(changes.captured), (std::vector<std::uint64_t>{2, 3}));
  EXPECT_TRUE(changes.updated.empty());
  EXPECT_TRUE(changes.removed.empty());
  // Nothing new since now.
  const DeadLetterChanges none = h.queue->changes_since(changes.revision);
  EXPECT_TRUE(none.complete);
  EXPECT_TRUE(none.captured.empty() && none.updated.empty() && none.removed.empty());
}

// Eviction by max-entries is reported as removed with the reason evicted (no client re-derives the
// cap).
TEST(DeadLetterChanges, EvictionIsReportedAsRemovedEvicted) {
  Harness h(2);
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  const std::uint64_t seen = h.queue->revision();
  h.capture("c", "/user/c");
  const DeadLetterChanges changes = h.queue->changes_since(seen);
  EXPECT_EQ(ids_of(changes.captured), (std::vector<std::uint64_t>{3}));
  EXPECT_EQ(removed_of(changes), (std::vector<std::string>{"1:evicted"}));
  EXPECT_EQ(h.queue->stats().evicted, 1u);
}

// Entries older than retention leave as aged-out, noticed when the feed is read.
TEST(DeadLetterChanges, AgeingIsReportedAsRemovedAgedOut) {
  Harness h(1000, 500);
  h.capture("a", "/user/a");
  const std::uint64_t seen = h.queue->revision();
  h.clock += 501;
  const DeadLetterChanges changes = h.queue->changes_since(seen);
  EXPECT_EQ(removed_of(changes), (std::vector<std::string>{"1:aged-out"}));
  EXPECT_EQ(h.queue->stats().aged_out, 1u);
}

// A replayed entry leaves as removed/replayed; when it dead-letters again it is updated (same id).
TEST(DeadLetterChanges, ReplayRemovesAndAReturnIsAnUpdate) {
  Harness h;
  h.target.spawn("/user/a", Mode::kAccept);
  h.capture("a", "/user/a");
  const std::uint64_t before = h.queue->revision();
  ASSERT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  const DeadLetterChanges replayed = h.queue->changes_since(before);
  EXPECT_EQ(removed_of(replayed), (std::vector<std::string>{"1:replayed"}));

  h.target.spawn("/user/fragile", Mode::kDeadLetter);
  h.capture("b", "/user/fragile");
  const std::uint64_t seen = h.queue->revision();
  ASSERT_EQ(h.queue->replay(2).outcome, ReplayOutcome::kReplayed);
  const DeadLetterChanges back = h.queue->changes_since(seen);
  EXPECT_TRUE(back.captured.empty());
  ASSERT_EQ(ids_of(back.updated), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(back.updated[0].replay_count, 1u);
  EXPECT_TRUE(back.removed.empty());
}

// A refused replay (reject) leaves the entry held; readers see it updated, never removed.
TEST(DeadLetterChanges, RejectedReplayIsAnUpdateNotARemoval) {
  Harness h;
  h.target.spawn("/user/full", Mode::kReject);
  h.capture("a", "/user/full");
  const std::uint64_t seen = h.queue->revision();
  ASSERT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kRejected);
  const DeadLetterChanges changes = h.queue->changes_since(seen);
  EXPECT_EQ(ids_of(changes.updated), (std::vector<std::uint64_t>{1}));
  EXPECT_TRUE(changes.removed.empty());
}

// Only the latest change per entry: captured then evicted within the window is just removed.
TEST(DeadLetterChanges, OnlyTheLatestChangePerEntryIsReported) {
  Harness h(1);
  const std::uint64_t seen = h.queue->revision();
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  const DeadLetterChanges changes = h.queue->changes_since(seen);
  EXPECT_EQ(ids_of(changes.captured), (std::vector<std::uint64_t>{2}));
  EXPECT_EQ(removed_of(changes), (std::vector<std::string>{"1:evicted"}));
}

// A reader further behind than the log remembers, or from before a clear, is told to re-list.
TEST(DeadLetterChanges, TooOldOrClearedRevisionIsIncomplete) {
  Harness h(100000);
  h.capture("first", "/user/a");
  const std::uint64_t old = h.queue->revision();
  for (std::size_t i = 0; i <= DeadLetterQueue::kChangeLogCapacity; ++i) h.capture("x", "/user/a");
  const DeadLetterChanges stale = h.queue->changes_since(old);
  EXPECT_FALSE(stale.complete);
  EXPECT_TRUE(stale.captured.empty());
  EXPECT_EQ(stale.revision, h.queue->revision());

  const std::uint64_t before_clear = h.queue->revision();
  h.queue->clear();
  EXPECT_FALSE(h.queue->changes_since(before_clear).complete);
  EXPECT_TRUE(h.queue->changes_since(h.queue->revision()).complete);
}

// Listeners hear each change with the new revision, outside the lock (they may read the queue);
// removed ones stop hearing.
TEST(DeadLetterChanges, ListenersAreToldAfterEachChange) {
  Harness h;
  std::vector<std::uint64_t> heard;
  std::size_t listed = 0;
  const std::uint64_t id = h.queue->add_change_listener([&](std::uint64_t revision) {
    heard.push_back(revision);
    listed = h.queue->list().size();  // re-entering the queue does not deadlock
  });
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  EXPECT_EQ(heard, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(listed, 2u);
  h.queue->remove_change_listener(id);
  h.capture("c", "/user/c");
  EXPECT_EQ(heard.size(), 2u);
}

// The strings of the removal reasons round-trip.
TEST(DeadLetterChanges, RemovalReasonStringsRoundTrip) {
  for (auto reason : {DeadLetterRemoval::kReplayed, DeadLetterRemoval::kEvicted,
                      DeadLetterRemoval::kAgedOut, DeadLetterRemoval::kPurged}) {
    EXPECT_EQ(dead_letter_removal_from_string(to_string(reason)), reason);
  }
  EXPECT_EQ(dead_letter_removal_from_string("purged"), DeadLetterRemoval::kPurged);
  EXPECT_FALSE(dead_letter_removal_from_string("deleted").has_value());
}

}  // namespace
}  // namespace mailroom
