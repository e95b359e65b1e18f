// read_dead_letter_journal: the offline view of a dead-letter queue's journal
// (what mailroom-dlq prints) agrees with what the queue itself restores, folds
// tombstones the same way, reports damage without throwing, and never writes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "mailroom/manual_dispatcher.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;

const std::string kStream = DeadLetterQueueSettings::default_persistence_id("shop");

class Idle : public Actor {
 public:
  void receive(const Message&) override {}
};

// One run of a "shop" system over a journal that outlives it.
struct Shop {
  explicit Shop(std::shared_ptr<Journal> journal)
      : dispatcher(std::make_shared<ManualDispatcher>()),
        system(ActorSystem::create(
            "shop",
            ActorSystemOptions::create()
                .with_dispatcher(dispatcher)
                .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
                .with_journal(std::move(journal)))) {}
  ~Shop() {
    system->terminate();
    system->await_termination();
  }
  void tell(const std::string& path, Message m) {
    system->actor_selection(path).tell(std::move(m));
    dispatcher->run_until_idle();
  }
  std::vector<std::uint64_t> ids() {  // oldest first
    std::vector<std::uint64_t> out;
    for (const auto& e : system->dead_letter_queue().list()) out.insert(out.begin(), e.id);
    return out;
  }
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
};

std::vector<std::uint64_t> ids(const DeadLetterJournalContents& c) {
  std::vector<std::uint64_t> out;
  for (const auto& l : c.letters) out.push_back(l.id);
  return out;
}

TEST(DeadLetterJournalReader, ShowsWhatTheQueueRestoresWithPayloadsAsJournaled) {
  auto journal = std::make_shared<InMemoryJournal>();
  {
    Shop shop(journal);
    shop.tell("/user/orders/a", "order-1"s);
    shop.tell("/user/orders/b", 42);
    shop.tell("/user/billing", 2.5);
    shop.system->spawn<Idle>("billing");
    auto letters = shop.system->dead_letter_queue().list();
    ASSERT_EQ(letters.size(), 3u);
    EXPECT_EQ(shop.system->dead_letter_queue().replay(letters.front().id).outcome,
              ReplayOutcome::kReplayed);  // /user/billing's letter leaves: a tombstone
    shop.dispatcher->run_until_idle();    // delivered before shutdown could dead-letter it again
    shop.system->dead_letter_queue().flush();
  }
  const DeadLetterJournalContents read = read_dead_letter_journal(*journal, kStream);
  EXPECT_EQ(ids(read), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(read.captured_records, 3u);
  EXPECT_EQ(read.removed_records, 1u);
  EXPECT_FALSE(read.damaged);
  ASSERT_EQ(read.letters.size(), 2u);
  EXPECT_EQ(read.letters[0].recipient_path, "/user/orders/a");
  EXPECT_EQ(read.letters[0].tag, "string");
  EXPECT_EQ(read.letters[0].value, "order-1");
  EXPECT_EQ(read.letters[1].tag, "int");
  EXPECT_EQ(read.letters[1].value, 42);

  Shop again(journal);
  EXPECT_EQ(again.ids(), ids(read));
}

TEST(DeadLetterJournalReader, ClearedTombstoneEmptiesAndLaterLettersCount) {
  auto journal = std::make_shared<InMemoryJournal>();
  {
    Shop shop(journal);
    shop.tell("/user/a", "one"s);
    shop.system->dead_letter_queue().clear();
    shop.tell("/user/b", "two"s);
    shop.system->dead_letter_queue().flush();
  }
  const auto read = read_dead_letter_journal(*journal, kStream);
  EXPECT_EQ(read.cleared_records, 1u);
  ASSERT_EQ(read.letters.size(), 1u);
  EXPECT_EQ(read.letters[0].recipient_path, "/user/b");
}

TEST(DeadLetterJournalReader, UnreadableAndUnknownRecordsAreCountedNotThrown) {
  InMemoryJournal journal;
  journal.append(kStream, R"({"k":"captured","id":1,"ts":5,"r":"/user/a","s":null,"n":0,)"
                          R"("p":{"t":"string","v":"x","c":"std::string"}})");
  journal.append(kStream, "not json");
  journal.append(kStream, R"({"k":"from-the-future","id":9})");
  journal.append(kStream, R"({"k":"captured","id":2,"ts":6,"r":"/user/b","s":"/user/a","n":1,)"
                          R"("p":{"d":{"c":"Opaque","w":"no codec"}}})");
  const auto read = read_dead_letter_journal(journal, kStream);
  EXPECT_EQ(read.records, 4u);
  ASSERT_EQ(read.unreadable.size(), 1u);
  EXPECT_NE(read.unreadable[0].find("record 2"), std::string::npos) << read.unreadable[0];
  EXPECT_EQ(read.unknown_records, 1u);
  ASSERT_EQ(read.letters.size(), 2u);
  EXPECT_TRUE(read.letters[1].degraded());
  EXPECT_EQ(read.letters[1].class_name, "Opaque");
  EXPECT_EQ(read.letters[1].degraded_reason, "no codec");
  EXPECT_EQ(read.letters[1].sender_path, "/user/a");
  EXPECT_EQ(read.letters[1].replay_count, 1u);
  EXPECT_EQ(journal.read(kStream).records.size(), 4u);  // nothing rewritten or dropped
}

TEST(DeadLetterJournalReader, MissingStreamIsEmpty) {
  InMemoryJournal journal;
  const auto read = read_dead_letter_journal(journal, kStream);
  EXPECT_TRUE(read.letters.empty());
  EXPECT_EQ(read.records, 0u);
  EXPECT_EQ(read.first_sequence, 0u);
}

}  // namespace
}  // namespace mailroom
