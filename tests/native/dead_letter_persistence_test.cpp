// The persistent store: journal records, restore across a restart, isolation
// by persistence id, degraded payloads, tombstones, damage and compaction.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"

namespace mailroom {
namespace {

using testing::FakeJournal;
using testing::FakeReplayTarget;

struct NoCodec {};  // a payload no codec can journal

void add_string_codec(PayloadCodecRegistry& codecs) {
  codecs.add<std::string>(
      "string", [](const std::string& s) { return nlohmann::json(s); },
      [](const nlohmann::json& j) { return j.get<std::string>(); });
}

DeadLetterQueueSettings persistent_settings(const std::string& system,
                                            std::size_t max_entries = 100,
                                            std::int64_t retention_ms = 0) {
  return DeadLetterQueueOptions::create()
      .with_store("persistent")
      .with_max_entries(static_cast<double>(max_entries))
      .with_retention_ms(static_cast<double>(retention_ms))
      .resolve(nullptr, system);
}

// One "process": a queue over a journal that outlives it (a second World on
// the same journal is a restart).
struct World {
  World(std::shared_ptr<FakeJournal> j, std::string system = "shop", std::size_t max_entries = 100,
        std::int64_t retention_ms = 0, std::int64_t start_clock = 1000)
      : journal(std::move(j)), clock(start_clock) {
    add_string_codec(codecs);
    settings = persistent_settings(system, max_entries, retention_ms);
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = journal;
    d.now_ms = [this] { return clock; };
    d.codecs = &codecs;
    d.report_damage = [this](const std::string& what) { damage.push_back(what); };
    queue = std::make_unique<DeadLetterQueue>(settings, d);
    target.set_sink(queue.get());
  }
  void capture(Message message, std::string recipient, std::string sender_path = "") {
    queue->capture(
        testing::make_letter(std::move(message), std::move(recipient), std::move(sender_path)));
  }
  std::vector<std::uint64_t> ids() {
    std::vector<std::uint64_t> out;
    for (const auto& e : queue->list()) out.push_back(e.id);
    return out;
  }
  std::string text(std::uint64_t id) {
    return std::get<DeadLetterEntry::Captured>(queue->get(id)->payload).message.get<std::string>();
  }

  std::shared_ptr<FakeJournal> journal;
  std::int64_t clock;
  PayloadCodecRegistry codecs;
  FakeReplayTarget target;
  DeadLetterQueueSettings settings;
  std::vector<std::string> damage;
  std::unique_ptr<DeadLetterQueue> queue;
};

// Records are appended on arrival, as JSON in the documented format.
TEST(DeadLetterPersistence, CaptureAppendsACapturedRecordAtOnce) {
  auto journal = std::make_shared<FakeJournal>();
  World w(journal);
  w.capture(std::string("hello"), "/user/a", "/user/b");
  const auto& records = journal->records("mailroom-dead-letters-shop");
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0].sequence, 1u);
  // The class name is the demangled type, which differs between libstdc++ and libc++.
  auto record = nlohmann::json::parse(records[0].payload);
  EXPECT_NE(record["p"]["c"].get<std::string>().find("basic_string"), std::string::npos);
  record["p"].erase("c");
  EXPECT_EQ(record.dump(),
            R"({"id":1,"k":"captured","n":0,"p":{"t":"string","v":"hello"},"r":"/user/a",)"
            R"("s":"/user/b","ts":1000,"why":"published"})");
}

// A restart restores the entries (payload, paths, order); ids continue after them.
TEST(DeadLetterPersistence, RestartRestoresEntriesAndIdsContinue) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal);
    first.capture(std::string("one"), "/user/a", "/user/client");
    first.capture(std::string("two"), "/user/b");
    first.queue->flush();
    EXPECT_EQ(journal->flushes, 1);
  }
  World second(journal);
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{2, 1}));
  EXPECT_EQ(second.text(1), "one");
  EXPECT_EQ(second.queue->get(1)->sender_path, std::optional<std::string>("/user/client"));
  EXPECT_EQ(second.queue->get(2)->sender_path, std::nullopt);
  EXPECT_EQ(second.queue->get(1)->timestamp_ms, 1000);
  EXPECT_EQ(second.queue->stats().restored, 2u);
  second.capture(std::string("three"), "/user/c");
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{3, 2, 1}));
  // Sequence numbers continue: the restore ran before the first append.
  EXPECT_EQ(journal->records("mailroom-dead-letters-shop").back().sequence, 3u);
  EXPECT_TRUE(second.damage.empty());
}

// After a restart the recorded sender is resolved by its path, so replies still reach it.
TEST(DeadLetterPersistence, RestoredEntryReplaysWithTheSenderResolvedByPath) {
  auto journal = std::make_shared<FakeJournal>();
  { World(journal).capture(std::string("m"), "/user/a", "/user/client"); }
  World second(journal);
  const ActorRef client = second.target.spawn("/user/client");
  second.target.spawn("/user/a");
  EXPECT_EQ(second.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  ASSERT_EQ(second.target.deliveries.size(), 1u);
  EXPECT_EQ(second.target.deliveries[0].envelope.sender, client);
  EXPECT_EQ(second.target.deliveries[0].envelope.message.get<std::string>(), "m");
}

// Two systems sharing a journal keep separate queues (the stream carries the system name).
TEST(DeadLetterPersistence, PersistenceIdsAreIsolated) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World orders(journal, "orders");
    World billing(journal, "billing");
    orders.capture(std::string("o"), "/user/a");
    billing.capture(std::string("b1"), "/user/a");
    billing.capture(std::string("b2"), "/user/a");
  }
  World orders(journal, "orders");
  World billing(journal, "billing");
  EXPECT_EQ(orders.ids(), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(orders.text(1), "o");
  EXPECT_EQ(billing.ids(), (std::vector<std::uint64_t>{2, 1}));
}

// An unencodable payload stays live and replayable in memory, but is degraded after a restart.
TEST(DeadLetterPersistence, UnencodablePayloadIsDegradedOnlyAfterARestart) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal);
    first.target.spawn("/user/a");
    first.capture(NoCodec{}, "/user/a");
    first.capture(NoCodec{}, "/user/a");
    EXPECT_FALSE(first.queue->get(1)->is_degraded());
    EXPECT_EQ(first.queue->replay(2).outcome, ReplayOutcome::kReplayed);
  }
  World second(journal);
  const auto entry = second.queue->get(1);
  ASSERT_TRUE(entry.has_value());
  ASSERT_TRUE(entry->is_degraded());
  const auto& degraded = std::get<DeadLetterEntry::Degraded>(entry->payload);
  EXPECT_NE(degraded.class_name.find("NoCodec"), std::string::npos);
  EXPECT_EQ(degraded.reason, "no codec registered for this type");
  second.target.spawn("/user/a");
  EXPECT_EQ(second.queue->replay(1).outcome, ReplayOutcome::kDegradedPayload);
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{1}));  // replayed entry 2 stays gone
}

// degraded-payload is answered before quarantined.
TEST(DeadLetterPersistence, DegradedIsCheckedBeforeQuarantine) {
  auto journal = std::make_shared<FakeJournal>();
  { World(journal).capture(NoCodec{}, "/user/a"); }
  World second(journal);
  auto settings = second.settings;
  settings.max_replays = 0;
  DeadLetterQueue::Dependencies d;
  d.journal = journal;
  DeadLetterQueue strict(settings, d);
  EXPECT_EQ(strict.replay(1).outcome, ReplayOutcome::kDegradedPayload);
}

// Tombstones are honoured: replayed and cleared entries do not come back after a restart.
TEST(DeadLetterPersistence, TombstonesAreHonoured) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal);
    first.target.spawn("/user/a");
    for (const char* t : {"1", "2", "3"}) first.capture(std::string(t), "/user/a");
    EXPECT_EQ(first.queue->replay(2).outcome, ReplayOutcome::kReplayed);
  }
  {
    World second(journal);
    EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{3, 1}));
    second.queue->clear();
    second.capture(std::string("4"), "/user/a");
  }
  World third(journal);
  EXPECT_EQ(third.ids(), (std::vector<std::uint64_t>{4}));
  EXPECT_EQ(third.text(4), "4");
}

// A replayed letter that came back is restored as the same entry with its replay count.
TEST(DeadLetterPersistence, ReturnedLetterIsRestoredAsTheSameEntry) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal);
    first.target.spawn("/user/fragile", FakeReplayTarget::Mode::kDeadLetter);
    first.capture(std::string("poison"), "/user/fragile");
    first.capture(std::string("other"), "/user/b");
    first.clock = 2000;
    EXPECT_EQ(first.queue->replay(1).outcome, ReplayOutcome::kReplayed);
  }
  World second(journal);
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(second.queue->get(1)->replay_count, 1u);
  EXPECT_EQ(second.queue->get(1)->timestamp_ms, 2000);
}

// A rejected replay writes no lasting tombstone: the entry is still there after a restart.
TEST(DeadLetterPersistence, RejectedReplaySurvivesARestart) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal);
    first.target.spawn("/user/full", FakeReplayTarget::Mode::kReject);
    first.capture(std::string("m"), "/user/full");
    EXPECT_EQ(first.queue->replay(1).outcome, ReplayOutcome::kRejected);
  }
  World second(journal);
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{1}));
  EXPECT_EQ(second.queue->get(1)->replay_count, 0u);
}

// Restored entries come first, then ageing and max-entries apply to them.
TEST(DeadLetterPersistence, RestoreAppliesRetentionAndMaxEntries) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal, "shop", 100, 0, 0);
    for (std::int64_t t = 0; t < 5; ++t) {
      first.clock = t * 1000;
      first.capture(std::string("m"), "/user/a");
    }
  }
  World aged(journal, "shop", 100, 2500, 5000);  // keeps timestamps >= 2500
  EXPECT_EQ(aged.ids(), (std::vector<std::uint64_t>{5, 4}));
  EXPECT_EQ(aged.queue->stats().aged_out, 3u);

  auto journal2 = std::make_shared<FakeJournal>();
  {
    World first(journal2);
    for (int i = 0; i < 5; ++i) first.capture(std::string("m"), "/user/a");
  }
  World capped(journal2, "shop", 2);
  capped.capture(std::string("new"), "/user/a");
  EXPECT_EQ(capped.ids(), (std::vector<std::uint64_t>{6, 5}));
}

// A damaged journal is reported; the intact records are restored and appends continue.
TEST(DeadLetterPersistence, DamagedJournalIsReportedAndThePrefixRestored) {
  auto journal = std::make_shared<FakeJournal>();
  { World(journal).capture(std::string("kept"), "/user/a"); }
  journal->damage_next_read = true;
  journal->append("mailroom-dead-letters-shop", "{not json");
  World second(journal);
  ASSERT_EQ(second.damage.size(), 2u);
  EXPECT_EQ(second.damage[0],
            "dead-letter journal 'mailroom-dead-letters-shop' damaged: 0 bytes and 0 records "
            "skipped, 2 intact records restored (torn tail)");
  EXPECT_EQ(
      second.damage[1].rfind(
          "dead-letter journal 'mailroom-dead-letters-shop': record 2 unreadable, skipped: ", 0),
      0u);
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{1}));
  second.capture(std::string("after"), "/user/a");
  EXPECT_EQ(second.ids(), (std::vector<std::uint64_t>{2, 1}));
}

// When most of the log is dead the prefix is compacted; the live entries still restore.
TEST(DeadLetterPersistence, DeadPrefixIsCompacted) {
  auto journal = std::make_shared<FakeJournal>();
  {
    World first(journal, "shop", 10);
    for (int i = 0; i < 1000; ++i) first.capture(std::string(std::to_string(i)), "/user/a");
    EXPECT_LE(journal->records("mailroom-dead-letters-shop").size(), 10u * 2 + 64 + 1);
  }
  World second(journal, "shop", 10);
  EXPECT_EQ(second.ids(),
            (std::vector<std::uint64_t>{1000, 999, 998, 997, 996, 995, 994, 993, 992, 991}));
  EXPECT_EQ(second.text(1000), "999");
}

// A journal cut at every byte of its last record (a hard kill mid-write)
// restores the letters before it, reports the damage, and appends continue cleanly.
TEST(DeadLetterPersistence, TornTailAtEveryByteOfTheLastRecordIsRecovered) {
  namespace fs = std::filesystem;
  const fs::path dir =
      (fs::is_directory("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path()) /
      ("mailroom-dlq-torn-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  std::string path;
  std::uintmax_t before_last = 0;
  {
    auto journal = std::make_shared<FileJournal>(dir.string());
    path = journal->path_for("mailroom-dead-letters-shop");
    PayloadCodecRegistry codecs;
    add_string_codec(codecs);
    DeadLetterQueue::Dependencies d;
    d.journal = journal;
    d.codecs = &codecs;
    DeadLetterQueue queue(persistent_settings("shop"), d);
    for (const char* t : {"one", "two"}) {
      queue.capture(testing::make_letter(Message(std::string(t)), "/user/a"));
    }
    queue.flush();
    before_last = fs::file_size(path);
    queue.capture(testing::make_letter(Message(std::string("three")), "/user/a"));
  }
  std::ifstream in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  ASSERT_GT(whole.size(), before_last);

  PayloadCodecRegistry codecs;
  add_string_codec(codecs);
  for (std::uintmax_t cut = before_last; cut < whole.size(); ++cut) {
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(whole.data(), cut);
    std::vector<std::string> damage;
    auto restart = [&] {
      auto journal = std::make_shared<FileJournal>(dir.string());
      DeadLetterQueue::Dependencies d;
      d.journal = journal;
      d.codecs = &codecs;
      d.report_damage = [&damage](const std::string& what) { damage.push_back(what); };
      auto queue = std::make_unique<DeadLetterQueue>(persistent_settings("shop"), d);
      std::vector<std::uint64_t> ids;
      for (const auto& e : queue->list()) ids.push_back(e.id);
      return std::make_pair(std::move(queue), ids);
    };
    {
      auto [queue, ids] = restart();
      EXPECT_EQ(ids, (std::vector<std::uint64_t>{2, 1})) << "cut at " << cut;
      EXPECT_EQ(damage.size(), cut == before_last ? 0u : 1u) << "cut at " << cut;
      queue->capture(testing::make_letter(Message(std::string("again")), "/user/a"));
    }
    damage.clear();
    auto [queue, ids] = restart();
    EXPECT_EQ(ids, (std::vector<std::uint64_t>{3, 2, 1})) << "cut at " << cut;
    EXPECT_TRUE(damage.empty()) << "cut at " << cut;
  }
  fs::remove_all(dir);
}

// A persistent store needs a journal: a named error, not a silent memory store.
TEST(DeadLetterPersistence, PersistentWithoutJournalIsAnOptionsError) {
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kPersistent;
  try {
    DeadLetterQueue queue(s, {});
    FAIL() << "expected OptionsError";
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "DeadLetterQueue");
    EXPECT_EQ(e.field(), "journal");
  }
}

// A memory store never touches a journal it was given.
TEST(DeadLetterPersistence, MemoryStoreIgnoresTheJournal) {
  auto journal = std::make_shared<FakeJournal>();
  DeadLetterQueueSettings s;
  s.store = DeadLetterStore::kMemory;
  DeadLetterQueue::Dependencies d;
  d.journal = journal;
  {
    DeadLetterQueue queue(s, d);
    queue.capture(testing::make_letter(Message(1), "/user/a"));
    queue.flush();
  }
  EXPECT_EQ(journal->reads, 0);
  EXPECT_EQ(journal->appends, 0);
  EXPECT_EQ(journal->flushes, 0);
}

}  // namespace
}  // namespace mailroom
