// Deferred journal records (the single-threaded host build's policy, reached
// natively): a persistent capture keeps its entry at once and queues its
// record; the host's pump encodes queued records in capture order, a bounded
// number per call; every journal operation drains the queue first, so the
// journal's order and completeness are those of encoding at capture.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/host_driven_dispatcher.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::FakeJournal;
using testing::FakeReplayTarget;
using Strings = std::vector<std::string>;

struct NoCodec {};  // a payload no codec can journal

// A payload whose codec reads the journal while it is being encoded.
struct Reentrant {
  std::function<void()> during_encode;
};

// One "process" whose queue defers its records (a second World on the same
// journal is a restart, which defers nothing: it only reads).
struct World {
  explicit World(std::shared_ptr<FakeJournal> j, std::size_t max_entries = 100,
                 std::uint32_t max_replays = 3)
      : journal(std::move(j)) {
    codecs.add<std::string>(
        "string", [](const std::string& s) { return nlohmann::json(s); },
        [](const nlohmann::json& v) { return v.get<std::string>(); });
    codecs.add<Reentrant>(
        "reentrant",
        [](const Reentrant& r) {
          if (r.during_encode) r.during_encode();
          return nlohmann::json("reentrant");
        },
        [](const nlohmann::json&) { return Reentrant{}; });
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = journal;
    d.now_ms = [] { return std::int64_t{1000}; };
    d.codecs = &codecs;
    // The host keeps the sync timer (as the wasm driver does), one that never
    // fires here: what these tests pin is when the records are written.
    d.sync_timer = [](std::int64_t) {};
    queue =
        std::make_unique<DeadLetterQueue>(DeadLetterQueueOptions::create()
                                              .with_store("persistent")
                                              .with_max_entries(static_cast<double>(max_entries))
                                              .with_max_replays(static_cast<double>(max_replays))
                                              .resolve(nullptr, "shop"),
                                          d);
    target.set_sink(queue.get());
  }
  void defer() {
    queue->defer_journal_records([this] { ++wakes; });
  }
  void capture(Message message, std::string recipient = "/user/gone") {
    queue->capture(testing::make_letter(std::move(message), std::move(recipient)));
  }
  // The journal as "<kind> <id> <payload value or d>", oldest first.
  Strings records() {
    Strings out;
    for (const JournalRecord& r : journal->records(queue->settings().persistence_id)) {
      const auto j = nlohmann::json::parse(r.payload);
      std::string line = j.at("k").get<std::string>();
      if (j.contains("id")) line += " " + std::to_string(j.at("id").get<std::uint64_t>());
      if (line.rfind("captured", 0) == 0) {
        const auto& p = j.at("p");
        line += " " + (p.contains("v") ? p.at("v").dump() : "d");
      }
      out.push_back(line);
    }
    return out;
  }

  std::shared_ptr<FakeJournal> journal;
  PayloadCodecRegistry codecs;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
  int wakes = 0;
};

Strings captured(int from, int to) {  // captured records from..to, payload "m<id>"
  Strings out;
  for (int i = from; i <= to; ++i) {
    out.push_back("captured " + std::to_string(i) + " \"m" + std::to_string(i) + "\"");
  }
  return out;
}

void burst(World& w, int n) {
  for (int i = 1; i <= n; ++i) w.capture("m"s + std::to_string(i));
}

// The entry is listed at once, holding the message as sent; its record waits
// for the pump, and the host is woken once (when the queue turns non-empty).
TEST(DeadLetterDeferredRecords, CaptureKeepsTheEntryAtOnceAndQueuesItsRecord) {
  World w(std::make_shared<FakeJournal>());
  w.defer();
  burst(w, 5);
  const auto entries = w.queue->list();
  ASSERT_EQ(entries.size(), 5u);
  EXPECT_EQ(std::get<DeadLetterEntry::Captured>(entries[0].payload).message.get<std::string>(),
            "m5");
  EXPECT_TRUE(w.records().empty());
  EXPECT_EQ(w.queue->pending_records(), 5u);
  EXPECT_EQ(w.wakes, 1);
  // Not deferred: the record is written inside capture.
  World eager(std::make_shared<FakeJournal>());
  burst(eager, 2);
  EXPECT_EQ(eager.records(), captured(1, 2));
  EXPECT_EQ(eager.queue->pending_records(), 0u);
}

// The pump encodes a bounded number per call, oldest first, and says what is left.
TEST(DeadLetterDeferredRecords, PumpEncodesInCaptureOrderABoundedNumberPerCall) {
  World w(std::make_shared<FakeJournal>());
  w.defer();
  burst(w, 5);
  EXPECT_EQ(w.queue->encode_pending(2), 3u);
  EXPECT_EQ(w.records(), captured(1, 2));
  EXPECT_EQ(w.queue->encode_pending(100), 0u);
  EXPECT_EQ(w.records(), captured(1, 5));
  // Empty again: the next capture wakes the host again.
  w.capture("m6"s);
  EXPECT_EQ(w.wakes, 2);
}

// Every operation that writes or reads the journal drains the queue first:
// its own record (if any) follows every captured record before it.
TEST(DeadLetterDeferredRecords, EachJournalOperationDrainsTheQueueFirst) {
  struct Case {
    const char* name;
    std::function<void(World&)> op;
    Strings after;  // records after captured 1..5
    std::uint32_t max_replays = 3;
  };
  const std::vector<Case> cases = {
      {"flush", [](World& w) { w.queue->flush(); }, {}},
      {"release_journal", [](World& w) { w.queue->release_journal(); }, {}},
      {"list_stream",
       [](World& w) { EXPECT_EQ(w.queue->list_stream("mailroom-dead-letters-shop").size(), 5u); },
       {}},
      {"stream_sizes", [](World& w) { w.queue->stream_sizes(); }, {}},
      {"remove", [](World& w) { w.queue->remove({2}); }, {"removed 2"}},
      {"clear", [](World& w) { w.queue->clear(); }, {"cleared"}},
      {"replay",
       [](World& w) {
         w.target.spawn("/user/gone");
         EXPECT_EQ(w.queue->replay(3).outcome, ReplayOutcome::kReplayed);
       },
       {"removed 3"}},
      {"release",  // max-replays 0: every entry is quarantined, so there is one to lift
       [](World& w) { EXPECT_EQ(w.queue->release(4), ReleaseOutcome::kReleased); },
       {"released 4"},
       0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    World w(std::make_shared<FakeJournal>(), 100, c.max_replays);
    w.defer();
    burst(w, 5);
    c.op(w);
    Strings expected = captured(1, 5);
    expected.insert(expected.end(), c.after.begin(), c.after.end());
    EXPECT_EQ(w.records(), expected);
    EXPECT_EQ(w.queue->pending_records(), 0u);
  }
}

// A payload no codec can journal, in the middle of a burst, is journaled
// degraded in its place when its turn comes; the memory entry stays live
// until a restart, which has only its provenance (degraded-payload).
TEST(DeadLetterDeferredRecords, NonEncodablePayloadInTheMiddleIsDegradedInItsPlace) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World w(journal);
    w.defer();
    w.capture("m1"s);
    w.capture(NoCodec{});
    w.capture("m3"s);
    EXPECT_FALSE(w.queue->get(2)->is_degraded());
    w.queue->flush();
    EXPECT_EQ(w.records(), (Strings{"captured 1 \"m1\"", "captured 2 d", "captured 3 \"m3\""}));
  }
  World again(journal);
  ASSERT_EQ(again.queue->list().size(), 3u);
  EXPECT_TRUE(again.queue->get(2)->is_degraded());
  EXPECT_FALSE(again.queue->get(3)->is_degraded());
  again.target.spawn("/user/gone");
  EXPECT_EQ(again.queue->replay(2).outcome, ReplayOutcome::kDegradedPayload);
}

// An entry evicted by max-entries before its turn gets no record (it would be
// dead on arrival); a restart holds exactly what the queue held.
TEST(DeadLetterDeferredRecords, AnEntryEvictedBeforeItsTurnIsNotWritten) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World w(journal, /*max_entries=*/3);
    w.defer();
    burst(w, 5);
    w.queue->flush();
    EXPECT_EQ(w.records(), captured(3, 5));
  }
  World again(journal, 3);
  std::vector<std::uint64_t> ids;
  for (const auto& e : again.queue->list()) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{5, 4, 3}));
}

// A codec that flushes the queue while its own record is being encoded does
// not start a second drain (no deadlock, no record out of order).
TEST(DeadLetterDeferredRecords, ACodecThatFlushesDuringTheDrainKeepsTheOrder) {
  World w(std::make_shared<FakeJournal>());
  w.defer();
  w.capture("m1"s);
  w.capture(Reentrant{[&w] { w.queue->flush(); }});
  w.capture("m3"s);
  w.queue->flush();
  EXPECT_EQ(w.records(),
            (Strings{"captured 1 \"m1\"", "captured 2 \"reentrant\"", "captured 3 \"m3\""}));
}

// --- the host-driven system ---------------------------------------------------

struct HostSystem {
  explicit HostSystem(std::shared_ptr<InMemoryJournal> journal)
      : host(std::make_shared<HostDrivenDispatcher>()) {
    system = ActorSystem::create(
        "orders",
        ActorSystemOptions()
            .with_dispatcher(host)
            .with_log_sink([](const LogEvent&) {})
            .with_dead_letters(
                DeadLetterQueueOptions::create().with_store("persistent").with_max_entries(10000))
            .with_journal(std::move(journal))
            // Like the wasm driver, a host that pumps keeps the sync timer itself
            // (here one that never fires: the slices and terminate write the
            // records), so no syncer thread drains the queue behind the test.
            .with_journal_sync_timer([this](std::int64_t) { ++sync_timers_armed; }));
    host->set_wake([this] { ++wakes; });
  }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }
  // What the wasm driver does per slice: actor work, then a bounded pump.
  bool slice() {
    host->run_for(std::chrono::microseconds(1000));
    const std::size_t left = queue().encode_pending(64);
    return host->has_work() || left > 0;
  }
  void terminate() {
    system->terminate();
    system->await_termination();
  }
  std::shared_ptr<HostDrivenDispatcher> host;
  std::shared_ptr<ActorSystem> system;
  int wakes = 0;
  int sync_timers_armed = 0;
};

std::vector<int> orders_oldest_first(DeadLetterQueue& queue) {
  std::vector<int> out;
  const auto entries = queue.list();
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    out.push_back(
        std::stoi(std::get<DeadLetterEntry::Captured>(it->payload).message.get<std::string>()));
  }
  return out;
}

std::vector<int> iota(int n) {
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(i);
  return out;
}

// A burst of selection tells to nothing: the host is woken by the queue, its
// slices pump the records a bounded number at a time, and a restart sees them
// all in order.
TEST(DeadLetterDeferredRecords, HostDrivenSlicesPumpABurstIntoTheJournal) {
  auto journal = std::make_shared<InMemoryJournal>();
  {
    HostSystem s(journal);
    s.host->drain();
    int pumped_by_wake = 0;
    s.queue().defer_journal_records([&] { ++pumped_by_wake; });
    for (int i = 0; i < 1000; ++i)
      s.system->actor_selection("/user/nobody").tell(std::to_string(i));
    EXPECT_EQ(pumped_by_wake, 1);
    EXPECT_EQ(s.queue().list().size(), 1000u);
    EXPECT_EQ(s.queue().pending_records(), 1000u);
    int slices = 0;
    while (s.slice()) ++slices;
    EXPECT_GE(slices, 1000 / 64);  // bounded per slice
    EXPECT_EQ(s.queue().pending_records(), 0u);
    s.terminate();
  }
  HostSystem again(journal);
  EXPECT_EQ(orders_oldest_first(again.queue()), iota(1000));
  again.terminate();
}

// terminate() drains what no slice has pumped yet.
TEST(DeadLetterDeferredRecords, TerminateDrainsTheQueuedRecords) {
  auto journal = std::make_shared<InMemoryJournal>();
  {
    HostSystem s(journal);
    s.queue().defer_journal_records([] {});
    for (int i = 0; i < 300; ++i) s.system->actor_selection("/user/nobody").tell(std::to_string(i));
    EXPECT_EQ(s.queue().pending_records(), 300u);
    s.terminate();
    EXPECT_EQ(s.queue().pending_records(), 0u);
  }
  HostSystem again(journal);
  EXPECT_EQ(orders_oldest_first(again.queue()), iota(300));
  again.terminate();
}

}  // namespace
}  // namespace mailroom
