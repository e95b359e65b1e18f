// Replaying dead letters: outcomes, their order, redirects and the replay bound
// (seed 002 "Erneut zustellen", SPEC §4).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/metrics_registry.hpp"
#include "support/dead_letter_fakes.hpp"

namespace mailroom {
namespace {

using testing::FakeReplayTarget;
using Mode = FakeReplayTarget::Mode;

struct Harness {
  explicit Harness(std::uint32_t max_replays = 3) {
    DeadLetterQueueSettings s;
    s.store = DeadLetterStore::kMemory;
    s.max_replays = max_replays;
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.metrics = &metrics;
    d.now_ms = [this] { return clock; };
    queue = std::make_unique<DeadLetterQueue>(s, d);
    target.set_sink(queue.get());
  }
  // Captures a letter the way the runtime would hand it over.
  void capture(Message message, std::string recipient, const ActorRef& sender = {},
               std::string sender_path = "") {
    queue->capture(testing::make_letter(std::move(message), std::move(recipient),
                                        std::move(sender_path), 0, sender));
  }
  std::uint64_t counted(const char* outcome) {
    return metrics.counter("actor_dead_letters_total", "", {{"outcome", outcome}}).value();
  }

  std::int64_t clock = 1000;
  MetricsRegistry metrics;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

// replayed: delivered with the recorded sender and the entry id on the envelope; the entry leaves.
TEST(DeadLetterReplay, ReplayDeliversWithTheRecordedSenderAndRemovesTheEntry) {
  Harness h;
  const ActorRef client = h.target.spawn("/user/client");
  const Message order = std::string("order-1");
  h.capture(order, "/user/checkout", client, "/user/client");
  h.target.spawn("/user/checkout");  // back as a new instance

  const ReplayResult result = h.queue->replay(1);
  EXPECT_EQ(result.outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(result.recipient_path, "/user/checkout");
  ASSERT_EQ(h.target.deliveries.size(), 1u);
  EXPECT_EQ(h.target.deliveries[0].path, "/user/checkout");
  EXPECT_EQ(h.target.deliveries[0].envelope.message.identity(), order.identity());
  EXPECT_EQ(h.target.deliveries[0].envelope.sender, client);
  EXPECT_EQ(h.target.deliveries[0].envelope.replay_entry, 1u);
  EXPECT_TRUE(h.queue->list().empty());
  EXPECT_EQ(h.counted("replayed"), 1u);
  EXPECT_EQ(h.counted("replay-failed"), 0u);
}

// unknown-entry: never captured, or already replayed.
TEST(DeadLetterReplay, UnknownIdsAndReplayedEntriesAreUnknown) {
  Harness h;
  h.target.spawn("/user/a");
  h.capture(1, "/user/a");
  EXPECT_EQ(h.queue->replay(99).outcome, ReplayOutcome::kUnknownEntry);
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kUnknownEntry);
  EXPECT_EQ(h.counted("replay-failed"), 2u);
}

// unresolved-recipient for a missing actor and for '', '/', '/user', '/system/x'; the entry stays.
TEST(DeadLetterReplay, UnresolvablePathsKeepTheEntry) {
  Harness h;
  h.target.spawn("/system/x");  // exists, but is not a user actor
  h.capture(1, "/user/gone");
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kUnresolvedRecipient);
  for (const char* path : {"", "/", "/user", "/system/x", "mailroom://other/user/gone"}) {
    const ReplayResult result = h.queue->replay(1, std::string(path));
    EXPECT_EQ(result.outcome, ReplayOutcome::kUnresolvedRecipient) << path;
    EXPECT_EQ(result.recipient_path, path);
  }
  EXPECT_TRUE(h.target.deliveries.empty());
  ASSERT_EQ(h.queue->list().size(), 1u);
  EXPECT_EQ(h.queue->list()[0].replay_count, 0u);
  EXPECT_EQ(h.counted("replay-failed"), 6u);
}

// A redirect changes only the target: recorded sender kept, recorded path never resolved.
TEST(DeadLetterReplay, RedirectKeepsTheSenderAndDoesNotResolveTheRecordedPath) {
  Harness h;
  const ActorRef client = h.target.spawn("/user/client");
  h.target.spawn("/user/checkout-v2");
  h.capture(std::string("order"), "/user/checkout", client, "/user/client");

  const ReplayResult result = h.queue->replay(1, std::string("actor-ts://shop/user/checkout-v2"));
  EXPECT_EQ(result.outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(result.recipient_path, "/user/checkout-v2");
  EXPECT_EQ(h.target.resolved, (std::vector<std::string>{"actor-ts://shop/user/checkout-v2"}));
  ASSERT_EQ(h.target.deliveries.size(), 1u);
  EXPECT_EQ(h.target.deliveries[0].path, "/user/checkout-v2");
  EXPECT_EQ(h.target.deliveries[0].envelope.sender, client);
}

// A letter that dead-letters again comes back as the same entry (count + 1) until quarantined.
TEST(DeadLetterReplay, PoisonMessageReturnsAsTheSameEntryAndIsQuarantined) {
  Harness h;  // max-replays 3
  h.target.spawn("/user/fragile", Mode::kDeadLetter);
  h.capture(std::string("poison"), "/user/fragile");
  h.capture(std::string("other"), "/user/elsewhere");

  std::vector<ReplayOutcome> outcomes;
  std::vector<std::uint32_t> counts;
  for (int attempt = 0; attempt < 4; ++attempt) {
    outcomes.push_back(h.queue->replay(1).outcome);
    counts.push_back(h.queue->get(1)->replay_count);
  }
  EXPECT_EQ(outcomes,
            (std::vector<ReplayOutcome>{ReplayOutcome::kReplayed, ReplayOutcome::kReplayed,
                                        ReplayOutcome::kReplayed, ReplayOutcome::kQuarantined}));
  EXPECT_EQ(counts, (std::vector<std::uint32_t>{1, 2, 3, 3}));
  EXPECT_EQ(h.target.deliveries.size(), 3u);
  // Still two entries: the poison one, now newest, and the other.
  const auto entries = h.queue->list();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].id, 1u);
  EXPECT_TRUE(entries[0].quarantined);
  EXPECT_EQ(entries[1].id, 2u);
  // Quarantine holds whatever the address.
  h.target.spawn("/user/healthy");
  EXPECT_EQ(h.queue->replay(1, std::string("/user/healthy")).outcome, ReplayOutcome::kQuarantined);
  EXPECT_EQ(h.queue->stats().returned, 3u);
  EXPECT_EQ(h.counted("captured"), 2u);
  EXPECT_EQ(h.counted("replayed"), 3u);
  EXPECT_EQ(h.counted("replay-failed"), 5u);  // 3 returns + 2 quarantined replays
}

// A redirected letter that fails again records the alternate path as where it failed.
TEST(DeadLetterReplay, RedirectThatFailsAgainRecordsTheAlternatePath) {
  Harness h;
  h.target.spawn("/user/v2", Mode::kDeadLetter);
  h.clock = 10;
  h.capture(std::string("m"), "/user/v1");
  h.clock = 20;
  EXPECT_EQ(h.queue->replay(1, std::string("/user/v2")).outcome, ReplayOutcome::kReplayed);
  const auto entry = h.queue->get(1);
  ASSERT_TRUE(entry.has_value());
  EXPECT_EQ(entry->recipient_path, "/user/v2");
  EXPECT_EQ(entry->replay_count, 1u);
  EXPECT_EQ(entry->timestamp_ms, 20);
  EXPECT_EQ(h.queue->list().size(), 1u);
}

// A mailbox that refuses the replay (reject) loses nothing: rejected, the entry stays unchanged.
TEST(DeadLetterReplay, RejectedReplayKeepsTheEntry) {
  Harness h;
  h.target.spawn("/user/full", Mode::kReject);
  h.capture(1, "/user/a");
  h.capture(2, "/user/full");
  h.capture(3, "/user/b");
  const ReplayResult result = h.queue->replay(2);
  EXPECT_EQ(result.outcome, ReplayOutcome::kRejected);
  EXPECT_EQ(result.recipient_path, "/user/full");
  std::vector<std::uint64_t> ids;
  for (const auto& e : h.queue->list()) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{3, 2, 1}));
  EXPECT_EQ(h.queue->get(2)->replay_count, 0u);
  EXPECT_EQ(h.counted("replay-failed"), 1u);
}

// max-replays 0: captured, never replayable.
TEST(DeadLetterReplay, MaxReplaysZeroMeansNeverReplayable) {
  Harness h(0);
  h.target.spawn("/user/a");
  h.capture(1, "/user/a");
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kQuarantined);
  EXPECT_TRUE(h.queue->get(1)->quarantined);
  EXPECT_TRUE(h.target.resolved.empty());
}

// quarantined is decided before the destination is resolved.
TEST(DeadLetterReplay, QuarantineIsCheckedBeforeResolution) {
  Harness h(1);
  h.target.spawn("/user/a", Mode::kDeadLetter);
  h.capture(1, "/user/a");
  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  h.target.stop("/user/a");
  h.target.resolved.clear();
  EXPECT_EQ(h.queue->replay(1, std::string("")).outcome, ReplayOutcome::kQuarantined);
  EXPECT_TRUE(h.target.resolved.empty());
}

// A queue without a ReplayTarget answers unresolved-recipient and keeps the entry.
TEST(DeadLetterReplay, QueueWithoutTargetCannotResolve) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMemory;
  DeadLetterQueue queue(s, {});
  queue.capture(testing::make_letter(Message(1), "/user/a"));
  EXPECT_EQ(queue.replay(1).outcome, ReplayOutcome::kUnresolvedRecipient);
  EXPECT_EQ(queue.list().size(), 1u);
}

// A letter carrying a replay id this queue never handed out is an ordinary new entry.
TEST(DeadLetterReplay, ForeignReplayIdIsANewEntry) {
  Harness h;
  h.queue->capture(testing::make_letter(Message(1), "/user/a", "", 77));
  const auto entries = h.queue->list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].id, 1u);
  EXPECT_EQ(entries[0].replay_count, 0u);
}

}  // namespace
}  // namespace mailroom
