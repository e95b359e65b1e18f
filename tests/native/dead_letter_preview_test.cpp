// Dry runs (DeadLetterQueue::preview_replay / preview_remove): each answers
// what the real call answers next, for every outcome, and changes nothing
// (entries, stats, revision, deliveries) — the panel's bulk preview is this.
#include <gtest/gtest.h>

#include <cstdint>
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

struct Unchanged {
  explicit Unchanged(DeadLetterQueue& q)
      : queue(q), size(q.list().size()), revision(q.revision()), stats(q.stats()) {}
  void check() const {
    EXPECT_EQ(queue.list().size(), size);
    EXPECT_EQ(queue.revision(), revision);
    const DeadLetterQueue::Stats now = queue.stats();
    EXPECT_EQ(now.replayed, stats.replayed);
    EXPECT_EQ(now.replay_failed, stats.replay_failed);
  }
  DeadLetterQueue& queue;
  std::size_t size;
  std::uint64_t revision;
  DeadLetterQueue::Stats stats;
};

// Every refusal the checks name, and replayed when they pass: the preview
// answers first, changing nothing; the replay that follows answers the same.
TEST(DeadLetterPreview, ReplayPreviewAgreesWithTheReplayForEachOutcome) {
  Harness h;
  h.target.spawn("/user/a");
  h.target.spawn("/user/b");
  h.capture("to a", "/user/a");        // 1: replayed
  h.capture("to nobody", "/user/z");   // 2: unresolved-recipient
  h.capture("redirected", "/user/z");  // 3: replayed to /user/b
  struct Case {
    std::uint64_t id;
    std::optional<std::string> path;
    ReplayOutcome expected;
    std::string recipient;
  };
  const std::vector<Case> cases = {
      {1, std::nullopt, ReplayOutcome::kReplayed, "/user/a"},
      {2, std::nullopt, ReplayOutcome::kUnresolvedRecipient, "/user/z"},
      {3, "mailroom://shop/user/b", ReplayOutcome::kReplayed, "/user/b"},
      {3, "/system/x", ReplayOutcome::kUnknownEntry, ""},  // replayed just before
      {99, std::nullopt, ReplayOutcome::kUnknownEntry, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("entry " + std::to_string(c.id));
    const std::size_t delivered = h.target.deliveries.size();
    Unchanged before(*h.queue);
    const ReplayResult preview = h.queue->preview_replay(c.id, c.path);
    before.check();
    EXPECT_EQ(h.target.deliveries.size(), delivered);
    EXPECT_EQ(preview.outcome, c.expected);
    EXPECT_EQ(preview.recipient_path, c.recipient);
    const ReplayResult real = h.queue->replay(c.id, c.path);
    EXPECT_EQ(real.outcome, preview.outcome);
    EXPECT_EQ(real.recipient_path, preview.recipient_path);
  }
}

// A quarantined entry (max-replays reached) is refused by the preview exactly
// as by the replay.
TEST(DeadLetterPreview, QuarantineIsNamedByThePreview) {
  Harness h;
  h.target.spawn("/user/loop", Mode::kDeadLetter);  // every delivery dead-letters again
  h.capture("again", "/user/loop");
  const std::uint32_t max = h.queue->settings().max_replays;
  for (std::uint32_t i = 0; i < max; ++i) {
    ASSERT_EQ(h.queue->preview_replay(1).outcome, ReplayOutcome::kReplayed);
    ASSERT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  }
  Unchanged before(*h.queue);
  EXPECT_EQ(h.queue->preview_replay(1).outcome, ReplayOutcome::kQuarantined);
  before.check();
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kQuarantined);
}

// A preview passes the checks; only the delivery can refuse (a full mailbox
// that rejects): the preview says replayed, the replay rejected, entry kept.
TEST(DeadLetterPreview, ARefusedDeliveryIsTheOneThingThePreviewCannotSee) {
  Harness h;
  h.target.spawn("/user/full", Mode::kReject);
  h.capture("m", "/user/full");
  EXPECT_EQ(h.queue->preview_replay(1).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kRejected);
  EXPECT_EQ(h.queue->list().size(), 1u);
}

// preview_remove answers remove's outcomes id by id (a repeated id finds
// nothing the second time) and removes nothing.
TEST(DeadLetterPreview, RemovePreviewAgreesWithRemoveAndRemovesNothing) {
  Harness h;
  h.capture("a", "/user/a");
  h.capture("b", "/user/b");
  h.capture("c", "/user/c");
  const std::vector<std::uint64_t> ids = {3, 42, 1, 3};
  Unchanged before(*h.queue);
  const std::vector<RemoveResult> preview = h.queue->preview_remove(ids);
  before.check();
  EXPECT_EQ(preview, (std::vector<RemoveResult>{{3, RemoveOutcome::kRemoved},
                                                {42, RemoveOutcome::kUnknownEntry},
                                                {1, RemoveOutcome::kRemoved},
                                                {3, RemoveOutcome::kUnknownEntry}}));
  EXPECT_EQ(h.queue->remove(ids), preview);
}

// A store that keeps nothing: both previews answer unknown-entry.
TEST(DeadLetterPreview, StoreOffAnswersUnknownEntry) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMetrics;
  DeadLetterQueue queue(s, {});
  EXPECT_EQ(queue.preview_replay(1).outcome, ReplayOutcome::kUnknownEntry);
  EXPECT_EQ(queue.preview_remove({1}),
            (std::vector<RemoveResult>{{1, RemoveOutcome::kUnknownEntry}}));
}

}  // namespace
}  // namespace mailroom
