// list({recipient}) answered from the ring's recipient index: the same
// entries, in the same order, as filtering every entry, after every kind of
// mutation (eviction, ageing, replay, return, holes compacted, restart).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/dead_letter_lists.hpp"
#include "support/memory_queue_harness.hpp"

namespace mailroom {
namespace {

using testing::by_recipient;
using testing::FakeJournal;
using testing::FakeReplayTarget;
using testing::ids;
using testing::recipients;
using Mode = FakeReplayTarget::Mode;

// The documented filter, written out plainly: "scheme://system" dropped (a
// system other than this one, "shop", matches nothing), trailing '/' dropped,
// then the path itself or below it on a '/' boundary.
bool brute_force_match(std::string_view path, std::string wanted) {
  if (auto scheme = wanted.find("://"); scheme != std::string::npos) {
    auto slash = wanted.find('/', scheme + 3);
    if (wanted.substr(scheme + 3, slash == std::string::npos ? std::string::npos
                                                             : slash - scheme - 3) != "shop") {
      return false;
    }
    wanted = slash == std::string::npos ? "/" : wanted.substr(slash);
  }
  while (wanted.size() > 1 && wanted.back() == '/') wanted.pop_back();
  if (wanted == "/") return !path.empty();
  if (path.substr(0, wanted.size()) != wanted) return false;
  return path.size() == wanted.size() || path[wanted.size()] == '/';
}

// What list(filter) must answer: list({}) filtered entry by entry.
std::vector<DeadLetterEntry> brute_force(DeadLetterQueue& queue, const DeadLetterFilter& filter) {
  std::vector<DeadLetterEntry> out;
  if (filter.limit && *filter.limit == 0) return out;
  for (auto& e : queue.list()) {
    if (filter.since_ms && e.timestamp_ms < *filter.since_ms) continue;
    if (filter.until_ms && e.timestamp_ms > *filter.until_ms) continue;
    if (filter.recipient && !brute_force_match(e.recipient_path, *filter.recipient)) continue;
    out.push_back(std::move(e));
    if (filter.limit && out.size() >= *filter.limit) break;
  }
  return out;
}

// Compares ids, paths, timestamps and replay counts of both answers.
void expect_same_as_brute_force(DeadLetterQueue& queue, const DeadLetterFilter& filter,
                                const std::string& context = "") {
  const auto indexed = queue.list(filter);
  const auto expected = brute_force(queue, filter);
  ASSERT_EQ(ids(indexed), ids(expected)) << context << " recipient=" << *filter.recipient;
  for (std::size_t i = 0; i < indexed.size(); ++i) {
    EXPECT_EQ(indexed[i].recipient_path, expected[i].recipient_path) << context;
    EXPECT_EQ(indexed[i].timestamp_ms, expected[i].timestamp_ms) << context;
    EXPECT_EQ(indexed[i].replay_count, expected[i].replay_count) << context;
    EXPECT_EQ(indexed[i].quarantined, expected[i].quarantined) << context;
  }
}

// Paths chosen to sit around segment boundaries in sort order: '-' and '.'
// sort before '/', '0' right after it, UTF-8 bytes after everything ASCII.
const std::vector<std::string> kPaths = {
    "/user/a",         "/user/a/b", "/user/a/b/c", "/user/ab",   "/user/a-b",
    "/user/a.b",       "/user/a0",  "/user/a/b0",  "/user/b",    "/user",
    "/user/a\xc3\xa9", "/system/a", "/user/a/b-c", "/user/ab/a",
};
const std::vector<std::string> kFilters = {
    "/user/a",
    "/user/a/",
    "/user/a/b",
    "/user/ab",
    "/user",
    "/",
    "/user/a0",
    "/system",
    "/user/a/b/c",
    "/nowhere",
    "/user/a-b",
    "/use",
    "/user/a/b-c",
    "mailroom://shop/user/a",
    "actor-ts://shop/user/a/b",
    "mailroom://other/user/ab",
    "mailroom://shop",
};

struct Harness : testing::MemoryQueueHarness {
  using MemoryQueueHarness::MemoryQueueHarness;
  std::vector<std::uint64_t> listed(std::string recipient) {
    return ids(queue->list(by_recipient(std::move(recipient))));
  }
  void expect_every_filter_matches_brute_force(const std::string& context = "") {
    for (const auto& f : kFilters) expect_same_as_brute_force(*queue, by_recipient(f), context);
  }
};

// A filter matches its path and everything below it, never a sibling that
// merely shares the prefix ("/user/ab", "/user/a-b", "/user/a0", "/user/aé").
TEST(DeadLetterIndex, RecipientMatchesOnSegmentBoundariesOnly) {
  Harness h;
  for (std::size_t i = 0; i < kPaths.size(); ++i) h.capture(static_cast<int>(i), kPaths[i]);
  EXPECT_EQ(recipients(h.queue->list(by_recipient("/user/a"))),
            (std::vector<std::string>{"/user/a/b-c", "/user/a/b0", "/user/a/b/c", "/user/a/b",
                                      "/user/a"}));
  EXPECT_EQ(recipients(h.queue->list(by_recipient("/user/a/b"))),
            (std::vector<std::string>{"/user/a/b/c", "/user/a/b"}));
  EXPECT_EQ(recipients(h.queue->list(by_recipient("/user/ab"))),
            (std::vector<std::string>{"/user/ab/a", "/user/ab"}));
  EXPECT_EQ(recipients(h.queue->list(by_recipient("/user/a0"))),
            (std::vector<std::string>{"/user/a0"}));
  EXPECT_EQ(h.queue->list(by_recipient("/user")).size(), kPaths.size() - 1);
  EXPECT_EQ(h.queue->list(by_recipient("/")).size(), kPaths.size());
  EXPECT_TRUE(h.queue->list(by_recipient("/use")).empty());
  h.expect_every_filter_matches_brute_force();
}

// Full paths in either scheme name the same subtree as the local path.
TEST(DeadLetterIndex, FullPathsInEitherSchemeMatchTheLocalSubtree) {
  Harness h;
  for (std::size_t i = 0; i < kPaths.size(); ++i) h.capture(static_cast<int>(i), kPaths[i]);
  const auto local = h.listed("/user/a");
  EXPECT_EQ(h.listed("mailroom://shop/user/a"), local);
  EXPECT_EQ(h.listed("actor-ts://shop/user/a"), local);
  EXPECT_EQ(h.listed("actor-ts://shop/user/a/"), local);
  EXPECT_EQ(h.listed("mailroom://shop"), h.listed("/"));
}

// Entries of several paths under one filter come back merged newest first.
TEST(DeadLetterIndex, SeveralPathsMergeNewestFirst) {
  Harness h;
  const std::vector<std::string> order = {"/user/a/x", "/user/a",   "/user/a/y", "/user/b",
                                          "/user/a/x", "/user/a/y", "/user/a"};
  for (std::size_t i = 0; i < order.size(); ++i) h.capture(static_cast<int>(i), order[i]);
  EXPECT_EQ(h.listed("/user/a"), (std::vector<std::uint64_t>{7, 6, 5, 3, 2, 1}));
  DeadLetterFilter limited = by_recipient("/user/a");
  limited.limit = 4;
  EXPECT_EQ(ids(h.queue->list(limited)), (std::vector<std::uint64_t>{7, 6, 5, 3}));
}

// since/until are applied before limit counts, exactly as without a recipient.
TEST(DeadLetterIndex, TimeWindowAndLimitNarrowARecipientList) {
  Harness h;
  for (int i = 0; i < 20; ++i) {
    h.clock = 100 * i;
    h.capture(i, i % 2 ? "/user/a/odd" : "/user/b");
  }
  DeadLetterFilter filter = by_recipient("/user/a");
  filter.since_ms = 300;
  filter.until_ms = 1300;
  EXPECT_EQ(ids(h.queue->list(filter)), (std::vector<std::uint64_t>{14, 12, 10, 8, 6, 4}));
  filter.limit = 2;
  EXPECT_EQ(ids(h.queue->list(filter)), (std::vector<std::uint64_t>{14, 12}));
  filter.limit = 0;
  EXPECT_TRUE(h.queue->list(filter).empty());
  filter.limit.reset();
  filter.since_ms = 5000;
  EXPECT_TRUE(h.queue->list(filter).empty());
}

// Entries pushed out by max-entries leave the recipient list too.
TEST(DeadLetterIndex, EvictionByMaxEntriesLeavesTheRecipientList) {
  Harness h(4);
  for (int i = 0; i < 10; ++i) h.capture(i, i < 6 ? "/user/gone" : "/user/kept");
  EXPECT_TRUE(h.listed("/user/gone").empty());
  EXPECT_EQ(h.listed("/user/kept"), (std::vector<std::uint64_t>{10, 9, 8, 7}));
  h.capture(10, "/user/gone/child");
  EXPECT_EQ(h.listed("/user/gone"), (std::vector<std::uint64_t>{11}));
  EXPECT_EQ(h.listed("/user/kept"), (std::vector<std::uint64_t>{10, 9, 8}));
  h.expect_every_filter_matches_brute_force();
}

// Entries older than retention leave the recipient list, on capture and on read.
TEST(DeadLetterIndex, RetentionExpiryLeavesTheRecipientList) {
  Harness h(1000, 1000);
  h.clock = 0;
  h.capture(1, "/user/a");
  h.clock = 400;
  h.capture(2, "/user/a/b");
  h.clock = 800;
  h.capture(3, "/user/a");
  h.clock = 1200;  // read ages out the first
  EXPECT_EQ(h.listed("/user/a"), (std::vector<std::uint64_t>{3, 2}));
  h.clock = 1500;
  h.capture(4, "/user/c");  // capture ages out the second
  EXPECT_EQ(h.listed("/user/a"), (std::vector<std::uint64_t>{3}));
  EXPECT_TRUE(h.listed("/user/a/b").empty());
  h.clock = 5000;
  EXPECT_TRUE(h.listed("/").empty());
}

// A replayed entry leaves its list; a rejected one stays in place; one that
// dead-letters again comes back as the newest under the path where it failed.
TEST(DeadLetterIndex, ReplayRemovesRejectKeepsAndReturnMovesTheEntry) {
  Harness h;
  h.target.spawn("/user/ok");
  h.target.spawn("/user/full", Mode::kReject);
  h.target.spawn("/user/fragile", Mode::kDeadLetter);
  h.capture(1, "/user/ok");
  h.capture(2, "/user/full");
  h.capture(3, "/user/fragile");
  h.capture(4, "/user/ok/child");
  h.capture(5, "/user/moved");

  EXPECT_EQ(h.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(h.listed("/user/ok"), (std::vector<std::uint64_t>{4}));
  EXPECT_EQ(h.queue->replay(2).outcome, ReplayOutcome::kRejected);
  EXPECT_EQ(h.listed("/user"), (std::vector<std::uint64_t>{5, 4, 3, 2}));
  EXPECT_EQ(h.queue->replay(3).outcome, ReplayOutcome::kReplayed);  // and back again
  EXPECT_EQ(h.listed("/user"), (std::vector<std::uint64_t>{3, 5, 4, 2}));
  EXPECT_EQ(h.listed("/user/fragile"), (std::vector<std::uint64_t>{3}));
  // Redirected into a failing actor: now listed under the alternate path only.
  EXPECT_EQ(h.queue->replay(5, std::string("/user/fragile")).outcome, ReplayOutcome::kReplayed);
  EXPECT_TRUE(h.listed("/user/moved").empty());
  EXPECT_EQ(h.listed("/user/fragile"), (std::vector<std::uint64_t>{5, 3}));
  h.expect_every_filter_matches_brute_force();
}

// Many replays leave holes that the ring squeezes out (renumbering its
// order); the recipient lists stay right through it and after.
TEST(DeadLetterIndex, RecipientListsSurviveCompactingHoles) {
  Harness h(1000);
  h.target.spawn("/user/a/x");
  for (int i = 0; i < 600; ++i) h.capture(i, i % 3 ? "/user/a/x" : "/user/a/keep");
  // Replays from the newest down leave holes in the middle, never at the front.
  for (std::uint64_t id = 600; id > 1; --id) {
    if (id % 3 != 1) {
      EXPECT_EQ(h.queue->replay(id).outcome, ReplayOutcome::kReplayed);
    }
  }
  ASSERT_EQ(h.queue->stats().size, 200u);
  h.expect_every_filter_matches_brute_force("after holes");
  EXPECT_EQ(h.listed("/user/a/x").size(), 0u);
  EXPECT_EQ(h.listed("/user/a").size(), 200u);
  for (int i = 0; i < 1000; ++i) h.capture(i, i % 2 ? "/user/a/x" : "/user/a/keep");
  h.expect_every_filter_matches_brute_force("after refill");
  EXPECT_EQ(h.listed("/user/a/x").size(), 500u);
}

// A filter over more paths than are worth merging (here "/" and "/user" over
// hundreds of one-letter actors) answers the same, limit and window included.
TEST(DeadLetterIndex, BroadFiltersOverManyPathsMatchABruteForceFilter) {
  Harness h(500);
  auto path = [](std::uint64_t i) {
    if (i % 5 == 4) return "/system/s-" + std::to_string(i % 100);
    return "/user/p-" + std::to_string(i % 400) + (i % 3 ? "/x" : "");
  };
  for (std::uint64_t i = 0; i < 800; ++i) {
    h.clock += 1;
    h.capture(static_cast<int>(i), path(i));
  }
  // Ids 1..300 were evicted; every other replay below finds its actor.
  for (std::uint64_t id = 301; id <= 800; id += 7) {
    if (id % 2) h.target.spawn(path(id - 1));
    h.queue->replay(id);
  }
  ASSERT_LT(h.queue->stats().size, 500u);
  for (const std::string wanted :
       {"/", "/user", "/system", "/user/p-3", "/user/p-3/x", "/user/p-39"}) {
    DeadLetterFilter filter = by_recipient(wanted);
    expect_same_as_brute_force(*h.queue, filter, wanted);
    filter.limit = 25;
    expect_same_as_brute_force(*h.queue, filter, wanted);
    filter.since_ms = h.clock - 200;
    filter.until_ms = h.clock - 100;
    expect_same_as_brute_force(*h.queue, filter, wanted);
  }
  EXPECT_EQ(h.queue->list(by_recipient("/")).size(), h.queue->stats().size);
  EXPECT_EQ(h.listed("/user/p-3"), (std::vector<std::uint64_t>{404}));
}

// clear empties every recipient list; later captures are listed again.
TEST(DeadLetterIndex, ClearEmptiesEveryRecipientList) {
  Harness h;
  for (std::size_t i = 0; i < kPaths.size(); ++i) h.capture(static_cast<int>(i), kPaths[i]);
  h.queue->clear();
  EXPECT_TRUE(h.listed("/").empty());
  h.capture(1, "/user/a/b");
  EXPECT_EQ(h.listed("/user/a"),
            (std::vector<std::uint64_t>{static_cast<std::uint64_t>(kPaths.size() + 1)}));
  h.expect_every_filter_matches_brute_force();
}

// A persistent queue: one "process" over a journal that outlives it.
struct Persistent {
  Persistent(std::shared_ptr<FakeJournal> j, std::size_t max_entries, std::int64_t retention_ms,
             std::int64_t start_clock)
      : journal(std::move(j)), clock(start_clock) {
    codecs.add<int>(
        "int", [](const int& v) { return nlohmann::json(v); },
        [](const nlohmann::json& v) { return v.get<int>(); });
    DeadLetterQueueSettings s;
    s.store = DeadLetterStore::kPersistent;
    s.persistence_id = "index-test";
    s.max_entries = max_entries;
    s.retention_ms = retention_ms;
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = journal;
    d.now_ms = [this] { return clock; };
    d.codecs = &codecs;
    queue = std::make_unique<DeadLetterQueue>(s, d);
    target.set_sink(queue.get());
  }
  void capture(int value, std::string recipient) {
    queue->capture(testing::make_letter(Message(value), std::move(recipient)));
  }
  std::vector<std::uint64_t> listed(std::string recipient) {
    return ids(queue->list(by_recipient(std::move(recipient))));
  }

  std::shared_ptr<FakeJournal> journal;
  std::int64_t clock;
  PayloadCodecRegistry codecs;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

// After a restart the restored entries are listed by recipient, bounded by the
// new run's max-entries and retention, and new captures join them.
TEST(DeadLetterIndex, RestartFromAJournalRestoresTheRecipientLists) {
  auto journal = std::make_shared<FakeJournal>();
  {
    Persistent first(journal, 100, 0, 1000);
    for (int i = 0; i < 10; ++i) {
      first.clock = 1000 + 100 * i;
      first.capture(i, i % 2 ? "/user/a/odd" : "/user/ab");
    }
    first.target.spawn("/user/a/odd");
    EXPECT_EQ(first.queue->replay(10).outcome, ReplayOutcome::kReplayed);  // tombstoned
    first.queue->flush();
  }
  Persistent second(journal, 100, 0, 3000);
  EXPECT_EQ(second.listed("/user/a"), (std::vector<std::uint64_t>{8, 6, 4, 2}));
  EXPECT_EQ(second.listed("/user/ab"), (std::vector<std::uint64_t>{9, 7, 5, 3, 1}));
  second.capture(10, "/user/a");
  EXPECT_EQ(second.listed("/user/a"), (std::vector<std::uint64_t>{11, 8, 6, 4, 2}));
  for (const auto& f : kFilters) expect_same_as_brute_force(*second.queue, by_recipient(f));
  second.queue->flush();
  second.queue.reset();

  // A smaller cap and a retention on the next start trim what is restored.
  // Retention keeps timestamps >= 1500 (ids 6..9 and 11), then the cap the newest 3.
  Persistent third(journal, 3, 2000, 3500);
  EXPECT_EQ(third.listed("/"), (std::vector<std::uint64_t>{11, 9, 8}));
  EXPECT_EQ(third.listed("/user/a"), (std::vector<std::uint64_t>{11, 8}));
  EXPECT_EQ(third.listed("/user/ab"), (std::vector<std::uint64_t>{9}));
}

// Picks a filter: a recipient from kFilters, sometimes a window and a limit.
DeadLetterFilter random_filter(std::mt19937& rng, std::int64_t clock) {
  DeadLetterFilter filter = by_recipient(kFilters[rng() % kFilters.size()]);
  if (rng() % 3 == 0) filter.since_ms = clock - static_cast<std::int64_t>(rng() % 400);
  if (rng() % 4 == 0) filter.until_ms = clock - static_cast<std::int64_t>(rng() % 300);
  if (rng() % 3 == 0) filter.limit = rng() % 12;
  return filter;
}

// Random captures, replays (delivered, rejected, dead-lettered again,
// redirected), ageing, eviction and clears: after every step each filter
// answers exactly what filtering list({}) answers.
TEST(DeadLetterIndex, RandomOperationsMatchABruteForceFilter) {
  for (std::uint32_t seed : {1u, 2u, 3u, 42u}) {
    std::mt19937 rng(seed);
    Harness h(40, 600);
    h.target.spawn("/user/a");
    h.target.spawn("/user/a/b", Mode::kReject);
    h.target.spawn("/user/ab", Mode::kDeadLetter);
    h.target.spawn("/user/a/b/c", Mode::kDeadLetter);
    for (int step = 0; step < 1500; ++step) {
      const unsigned op = rng() % 100;
      h.clock += static_cast<std::int64_t>(rng() % 20);
      if (op < 55) {
        h.capture(step, kPaths[rng() % kPaths.size()]);
      } else if (op < 85) {
        const auto all = h.queue->list();
        if (all.empty()) continue;
        const std::uint64_t id = all[rng() % all.size()].id;
        if (rng() % 4 == 0) {
          h.queue->replay(id, kPaths[rng() % kPaths.size()]);
        } else {
          h.queue->replay(id);
        }
      } else if (op < 99) {
        h.clock += 200;  // lets retention take some
      } else {
        h.queue->clear();
      }
      const std::string context = "seed " + std::to_string(seed) + " step " + std::to_string(step);
      for (int check = 0; check < 3; ++check) {
        expect_same_as_brute_force(*h.queue, random_filter(rng, h.clock), context);
      }
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// The same over a persistent store restarted now and then from its journal.
TEST(DeadLetterIndex, RandomOperationsAcrossRestartsMatchABruteForceFilter) {
  std::mt19937 rng(7);
  auto journal = std::make_shared<FakeJournal>();
  std::int64_t clock = 1000;
  auto start = [&] {
    auto p = std::make_unique<Persistent>(journal, 30, 800, clock);
    p->target.spawn("/user/a");
    p->target.spawn("/user/a/b", Mode::kReject);
    p->target.spawn("/user/ab", Mode::kDeadLetter);
    return p;
  };
  auto world = start();
  for (int step = 0; step < 800; ++step) {
    const unsigned op = rng() % 100;
    world->clock += static_cast<std::int64_t>(rng() % 20);
    if (op < 60) {
      world->capture(step, kPaths[rng() % kPaths.size()]);
    } else if (op < 90) {
      const auto all = world->queue->list();
      if (!all.empty()) world->queue->replay(all[rng() % all.size()].id);
    } else {
      world->queue->flush();
      clock = world->clock;
      world.reset();
      world = start();
    }
    const std::string context = "step " + std::to_string(step);
    for (int check = 0; check < 3; ++check) {
      expect_same_as_brute_force(*world->queue, random_filter(rng, world->clock), context);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace
}  // namespace mailroom
