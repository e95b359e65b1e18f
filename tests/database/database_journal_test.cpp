// DatabaseJournal, the part both database journals share: queueing and
// batching, a database that goes away (records kept, retried, bounded,
// the backlog metric), idempotent retries, conflicts, compaction marks.
#include <gtest/gtest.h>

#include <thread>

#include <chrono>
#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/metrics_registry.hpp"
#include "support/fake_backend.hpp"

namespace mailroom {
namespace {

using namespace std::chrono_literals;
using namespace std::string_literals;
using testing::FakeBackend;
using testing::FakeDatabase;

DatabaseJournalOptions quick(std::size_t max_backlog = 1000) {
  DatabaseJournalOptions o;
  o.max_backlog = max_backlog;
  o.commit_interval = 1ms;
  o.flush_timeout = 200ms;
  o.retry_min = 1ms;
  o.retry_max = 5ms;
  return o;
}

std::map<std::uint64_t, std::string> expected(std::initializer_list<std::uint64_t> seqs) {
  std::map<std::uint64_t, std::string> out;
  for (auto s : seqs) out[s] = "r" + std::to_string(s);
  return out;
}

// append() numbers records per stream at once; flush() has them all stored.
TEST(DatabaseJournal, FlushStoresEveryAppendedRecordInSequence) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
  for (std::uint64_t i = 1; i <= 3; ++i) EXPECT_EQ(journal.append("a", "r" + std::to_string(i)), i);
  EXPECT_EQ(journal.append("b", "r1"), 1u);
  journal.flush();
  EXPECT_EQ(db->stream("a"), expected({1, 2, 3}));
  EXPECT_EQ(db->stream("b"), expected({1}));
  EXPECT_EQ(journal.backlog(), 0u);
}

// Without any flush() an appended record is stored within the commit interval:
// another process reading the stream sees it (the writer is woken by the
// first waiting record, not only by a full batch or a flush).
TEST(DatabaseJournal, AppendedRecordIsStoredWithoutAFlush) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
  journal.append("a", "r1");
  journal.flush();  // the writer is now idle, waiting for work
  journal.append("a", "r2");
  const auto deadline = std::chrono::steady_clock::now() + 5s;
  while (db->stream("a").size() < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::yield();
  }
  EXPECT_EQ(db->stream("a"), expected({1, 2}));
}

// A database that is away keeps every record queued (the backlog), flush()
// names the outage, and once it is back everything is stored, nothing lost.
TEST(DatabaseJournal, RecordsWaitWhileTheDatabaseIsAwayAndAreStoredWhenItReturns) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
  journal.acquire("a");
  db->set_away(true);
  for (int i = 1; i <= 5; ++i) journal.append("a", "r" + std::to_string(i));
  EXPECT_THROW(journal.flush(), JournalUnavailableError);
  EXPECT_EQ(journal.backlog(), 5u);
  EXPECT_NE(journal.unavailable_reason().find("the database is away"), std::string::npos);
  db->set_away(false);
  journal.flush();
  EXPECT_EQ(db->stream("a"), expected({1, 2, 3, 4, 5}));
  EXPECT_EQ(journal.backlog(), 0u);
  EXPECT_EQ(journal.unavailable_reason(), "");
}

// The backlog is bounded: beyond max_backlog an append is refused by name,
// and the records queued before it are still stored later.
TEST(DatabaseJournal, FullBacklogRefusesTheAppendAndKeepsTheQueuedOnes) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick(3));
  journal.acquire("a");
  db->set_away(true);
  for (int i = 1; i <= 3; ++i) journal.append("a", "r" + std::to_string(i));
  try {
    journal.append("a", "r4");
    FAIL() << "a fourth record was queued";
  } catch (const JournalBacklogFullError& e) {
    EXPECT_EQ(e.stream(), "a");
    EXPECT_EQ(e.backlog(), 3u);
  }
  db->set_away(false);
  journal.flush();
  EXPECT_EQ(db->stream("a"), expected({1, 2, 3}));
  EXPECT_EQ(journal.append("a", "r4"), 4u);  // the refused record took no number
}

// A commit whose reply was lost is retried: the rows already there are
// identical, so the retry stores nothing twice and reports no conflict.
TEST(DatabaseJournal, RetryAfterALostCommitReplyIsIdempotent) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
  journal.acquire("a");
  db->lose_next_reply = true;
  journal.append("a", "r1");
  journal.append("a", "r2");
  journal.flush();
  EXPECT_EQ(db->stream("a"), expected({1, 2}));
  EXPECT_GE(db->append_calls, 2);
}

// A different record under an existing (stream, seq) is never overwritten:
// JournalConflictError from flush() and from every later append.
TEST(DatabaseJournal, DifferentRecordUnderAStoredSequenceIsAConflict) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
  journal.acquire("a");
  db->rows["a"][1] = "someone else's";  // acquire() saw an empty stream
  journal.append("a", "r1");
  try {
    journal.flush();
    FAIL() << "the conflict was not reported";
  } catch (const JournalConflictError& e) {
    EXPECT_EQ(e.stream(), "a");
    EXPECT_EQ(e.sequence(), 1u);
  }
  EXPECT_THROW(journal.append("a", "r2"), JournalConflictError);
  EXPECT_EQ(db->stream("a").at(1), "someone else's");
  EXPECT_EQ(journal.backlog(), 1u);  // kept, not dropped
}

// delete_up_to never waits: queued records it covers are never written,
// stored ones are deleted, and sequence numbers go on from the highest.
TEST(DatabaseJournal, CompactionDropsCoveredRecordsAndKeepsNumbering) {
  auto db = std::make_shared<FakeDatabase>();
  {
    DatabaseJournal journal(std::make_unique<FakeBackend>(db), quick());
    for (int i = 1; i <= 3; ++i) journal.append("a", "r" + std::to_string(i));
    journal.flush();
    db->set_away(true);
    for (int i = 4; i <= 6; ++i) journal.append("a", "r" + std::to_string(i));
    journal.delete_up_to("a", 5);
    EXPECT_EQ(journal.backlog(), 1u);  // only record 6 still has to be written
    db->set_away(false);
    journal.flush();
    EXPECT_EQ(db->stream("a"), expected({6}));
    journal.delete_up_to("a", 6);
    journal.flush();
    EXPECT_TRUE(db->stream("a").empty());
    journal.release("a");
  }
  DatabaseJournal again(std::make_unique<FakeBackend>(db), quick());
  EXPECT_EQ(again.append("a", "r7"), 7u);
}

// One writer per stream, as the backend decides.
TEST(DatabaseJournal, SecondWriterIsRefusedWithJournalLockedError) {
  auto db = std::make_shared<FakeDatabase>();
  DatabaseJournal first(std::make_unique<FakeBackend>(db), quick());
  DatabaseJournal second(std::make_unique<FakeBackend>(db), quick());
  first.acquire("a");
  EXPECT_THROW(second.append("a", "x"), JournalLockedError);
  EXPECT_NO_THROW(second.append("b", "x"));
}

// The system's scrape carries the journal's backlog while the database is away.
TEST(DatabaseJournal, BacklogIsExposedAsAMetricOfTheSystem) {
  auto db = std::make_shared<FakeDatabase>();
  auto journal = std::make_shared<DatabaseJournal>(std::make_unique<FakeBackend>(db), quick());
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create(
      "orders", ActorSystemOptions::create()
                    .with_dispatcher(dispatcher)
                    .with_journal(journal)
                    .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent")));
  db->set_away(true);
  system->actor_selection("/user/nobody").tell("order-1"s);
  system->actor_selection("/user/nobody").tell("order-2"s);
  const std::string scrape = system->metrics().scrape();
  EXPECT_NE(scrape.find("mailroom_journal_backlog{stream=\"mailroom-dead-letters-orders\"} 2"),
            std::string::npos)
      << scrape;
  db->set_away(false);
  journal->flush();
  EXPECT_NE(system->metrics().scrape().find(
                "mailroom_journal_backlog{stream=\"mailroom-dead-letters-orders\"} 0"),
            std::string::npos);
  system->terminate();
  dispatcher->run_until_idle();
}

}  // namespace
}  // namespace mailroom
