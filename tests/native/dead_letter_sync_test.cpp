// The sync-within bound: the queue, not the target's glue, decides when a
// journal change reaches durable storage; operator actions return only after
// their record is durable; a storage that confirms later (IndexedDB) is
// waited for by when_durable.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/scratch_dir.hpp"

namespace mailroom {
namespace {

using testing::FakeReplayTarget;

// An in-memory journal that counts flushes and, like IndexedDB, may confirm
// durability later (held callbacks until confirm()).
class CountingJournal final : public Journal {
 public:
  JournalReadResult read(const std::string& stream) override { return inner_.read(stream); }
  std::uint64_t append(const std::string& stream, std::string payload) override {
    ++appends;
    return inner_.append(stream, std::move(payload));
  }
  void flush() override { ++flushes; }
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override {
    inner_.delete_up_to(stream, up_to);
  }
  void flush_then(std::function<void(std::string)> done) override {
    flush();
    if (!confirm_later) return done({});
    std::lock_guard<std::mutex> lock(mutex_);
    held_.push_back(std::move(done));
  }
  std::int64_t default_sync_within_ms() const override { return default_bound; }
  void confirm(const std::string& error = {}) {
    std::vector<std::function<void(std::string)>> held;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      held.swap(held_);
    }
    for (auto& done : held) done(error);
  }

  std::atomic<int> appends{0};
  std::atomic<int> flushes{0};
  bool confirm_later = false;
  std::int64_t default_bound = 50;

 private:
  InMemoryJournal inner_;
  std::mutex mutex_;
  std::vector<std::function<void(std::string)>> held_;
};

DeadLetterQueueSettings settings_with(std::optional<double> sync_within_ms) {
  auto options = DeadLetterQueueOptions::create().with_store("persistent");
  if (sync_within_ms) options.with_sync_within_ms(*sync_within_ms);
  return options.resolve(nullptr, "shop");
}

struct Queue {
  explicit Queue(std::shared_ptr<Journal> journal, std::optional<double> bound = std::nullopt,
                 bool own_timer = true) {
    codecs.add<std::string>(
        "string", [](const std::string& s) { return nlohmann::json(s); },
        [](const nlohmann::json& j) { return j.get<std::string>(); });
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = std::move(journal);
    d.codecs = &codecs;
    if (own_timer) d.sync_timer = [this](std::int64_t delay) { armed.push_back(delay); };
    queue = std::make_unique<DeadLetterQueue>(settings_with(bound), d);
    target.set_sink(queue.get());
  }
  void capture(int n) {
    for (int i = 0; i < n; ++i) {
      queue->capture(
          testing::make_letter(Message(std::string("m") + std::to_string(i)), "/user/a"));
    }
  }
  PayloadCodecRegistry codecs;
  FakeReplayTarget target;
  std::vector<std::int64_t> armed;
  std::unique_ptr<DeadLetterQueue> queue;
};

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

TEST(DeadLetterSync, TheBoundIsAnIntegerFromZeroToOneMinute) {
  for (double bad : std::vector<double>{-1.0, 1.5, 60001.0, std::nan(""), HUGE_VAL}) {
    try {
      DeadLetterQueueOptions::create().with_sync_within_ms(bad);
      FAIL() << "accepted " << bad;
    } catch (const OptionsError& e) {
      EXPECT_EQ(e.field(), "syncWithinMs");
    }
  }
  EXPECT_EQ(*settings_with(0).sync_within_ms, 0);
  EXPECT_EQ(*settings_with(60000).sync_within_ms, 60000);
  EXPECT_FALSE(settings_with(std::nullopt).sync_within_ms.has_value());
}

TEST(DeadLetterSync, HoconSyncWithinIsADuration) {
  const HoconConfig config = HoconConfig::parse("mailroom.dead-letters.sync-within = 20ms");
  EXPECT_EQ(DeadLetterQueueOptions::create().resolve(&config, "shop").sync_within_ms, 20);
  const HoconConfig seconds = HoconConfig::parse("mailroom.dead-letters { sync-within = 2s }");
  EXPECT_EQ(DeadLetterQueueOptions::create().resolve(&seconds, "shop").sync_within_ms, 2000);
  const HoconConfig too_long = HoconConfig::parse("mailroom.dead-letters.sync-within = 2m");
  EXPECT_THROW(DeadLetterQueueOptions::create().resolve(&too_long, "shop"), OptionsError);
}

TEST(DeadLetterSync, UnsetTheBoundIsTheJournals) {
  auto journal = std::make_shared<CountingJournal>();
  journal->default_bound = 250;
  Queue q(journal);
  EXPECT_EQ(q.queue->sync_within_ms(), 250);
  Queue explicit_bound(std::make_shared<CountingJournal>(), 7);
  EXPECT_EQ(explicit_bound.queue->sync_within_ms(), 7);
  const testing::ScratchDir dir("mailroom-sync");
  EXPECT_EQ(FileJournal(dir.str()).default_sync_within_ms(), 50);
}

// A burst arms the host's timer once; what arrives before it fires rides along.
TEST(DeadLetterSync, ACaptureArmsTheTimerOnceAndTheDueSyncFlushes) {
  auto journal = std::make_shared<CountingJournal>();
  Queue q(journal, 30);
  const int before = journal->flushes.load();
  q.capture(500);
  ASSERT_EQ(q.armed.size(), 1u);
  EXPECT_EQ(q.armed[0], 30);
  EXPECT_EQ(journal->flushes.load(), before);  // nothing waits for the disk inside a capture
  q.queue->sync_due();
  EXPECT_EQ(journal->flushes.load(), before + 1);
  q.capture(1);
  EXPECT_EQ(q.armed.size(), 2u);  // the next change opens the next window
}

// Natively, without a host timer, the queue's own syncer thread keeps the bound.
TEST(DeadLetterSync, WithoutAHostTimerTheQueuesSyncerFlushesWithinTheBound) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "no threads: the wasm host arms its own timer";
#endif
  auto journal = std::make_shared<CountingJournal>();
  Queue q(journal, 20, /*own_timer=*/false);
  const int before = journal->flushes.load();
  q.capture(3);
  EXPECT_TRUE(eventually([&] { return journal->flushes.load() > before; },
                         std::chrono::milliseconds(5000)));
}

TEST(DeadLetterSync, OperatorActionsReturnAfterTheirRecordIsFlushed) {
  auto journal = std::make_shared<CountingJournal>();
  Queue q(journal, 60000);
  q.capture(4);
  const auto ids = [&] {
    std::vector<std::uint64_t> out;
    for (const auto& e : q.queue->list()) out.push_back(e.id);
    return out;
  }();
  int flushes = journal->flushes.load();
  q.queue->remove({ids[0]});
  EXPECT_EQ(journal->flushes.load(), ++flushes) << "remove";
  q.queue->remove({999});  // nothing removed: nothing to make durable
  EXPECT_EQ(journal->flushes.load(), flushes);
  q.queue->clear();
  EXPECT_EQ(journal->flushes.load(), ++flushes) << "clear";
}

// IndexedDB confirms after the call: when_durable waits for that, not the flush.
TEST(DeadLetterSync, WhenDurableWaitsForTheStorageToConfirm) {
  auto journal = std::make_shared<CountingJournal>();
  journal->confirm_later = true;
  Queue q(journal);
  q.capture(2);
  std::vector<std::string> answers;
  q.queue->when_durable([&](std::string error) { answers.push_back("done:" + error); });
  EXPECT_TRUE(answers.empty());
  journal->confirm();
  ASSERT_EQ(answers.size(), 1u);
  EXPECT_EQ(answers[0], "done:");
  q.queue->when_durable([&](std::string error) { answers.push_back("done:" + error); });
  journal->confirm("quota exceeded");
  EXPECT_EQ(answers.back(), "done:quota exceeded");
}

TEST(DeadLetterSync, AMemoryQueueIsDurableAtOnce) {
  DeadLetterQueue::Dependencies d;
  DeadLetterQueue queue(DeadLetterQueueOptions::create().with_store("memory").resolve(nullptr, "s"),
                        d);
  bool done = false;
  queue.when_durable([&](std::string error) { done = error.empty(); });
  EXPECT_TRUE(done);
  EXPECT_FALSE(queue.sync_within_ms().has_value());  // no journal: no bound to state
}

}  // namespace
}  // namespace mailroom
