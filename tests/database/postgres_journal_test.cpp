// The PostgreSQL journal against a real server (a throw-away cluster this
// binary starts, support/pg_cluster.hpp): schema and migration, restart
// recovery, two writers refused, the server killed mid-burst (nothing
// acknowledged lost, the backlog bounded and counted), a lock taken while
// disconnected, compaction, two systems sharing one database, a long stream.
// Without the server binaries every test is skipped saying so (stage 65
// sets MAILROOM_REQUIRE_POSTGRES=1 and fails instead).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/postgres_journal.hpp"
#include "postgres/pg_connection.hpp"
#include "postgres/pg_schema.hpp"
#include "support/journal_records.hpp"
#include "support/letter_counts.hpp"
#include "support/live_pages.hpp"
#include "support/narrowed_read.hpp"
#include "support/pg_cluster.hpp"
#include "support/url_system.hpp"

namespace mailroom {
namespace {

using namespace std::chrono_literals;
using namespace std::string_literals;
using testing::PgCluster;

class PostgresJournal : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string why = PgCluster::unavailable_reason();
    if (!why.empty()) {
      skip_reason() = why;
      return;
    }
    cluster() = std::make_unique<PgCluster>();
  }
  static void TearDownTestSuite() { cluster().reset(); }

  void SetUp() override {
    if (!skip_reason().empty()) {
      const char* require = std::getenv("MAILROOM_REQUIRE_POSTGRES");
      if (require && std::string(require) == "1") FAIL() << skip_reason();
      GTEST_SKIP() << "PostgreSQL tests skipped: " << skip_reason();
    }
    // A fresh database per test: schema tests start from nothing.
    static int counter = 0;
    db_name_ = "mailroom_test_" + std::to_string(++counter);
    detail::PgConnection admin(cluster()->url(), "admin");
    admin.ensure();
    admin.exec("DROP DATABASE IF EXISTS " + db_name_, "dropping");
    admin.exec("CREATE DATABASE " + db_name_, "creating");
  }

  static std::unique_ptr<PgCluster>& cluster() {
    static std::unique_ptr<PgCluster> instance;
    return instance;
  }
  static std::string& skip_reason() {
    static std::string reason;
    return reason;
  }
  std::string url() const {
    return "postgresql://postgres@127.0.0.1:" + std::to_string(cluster()->port()) + "/" + db_name_ +
           "?connect_timeout=5";
  }
  // Every row of a query as psql -At would print it ('|' between columns).
  std::vector<std::string> rows(const std::string& sql) {
    detail::PgConnection c(url(), "psql");
    c.ensure();
    auto r = c.exec(sql, "query");
    std::vector<std::string> out;
    for (int i = 0; i < PQntuples(r.get()); ++i) {
      std::string row;
      for (int j = 0; j < PQnfields(r.get()); ++j) {
        row += (j ? "|" : "") +
               (PQgetisnull(r.get(), i, j) ? "NULL"s : std::string(PQgetvalue(r.get(), i, j)));
      }
      out.push_back(row);
    }
    return out;
  }
  static DatabaseJournalOptions patient() {
    DatabaseJournalOptions o;
    o.flush_timeout = 60s;
    o.retry_min = 10ms;
    o.retry_max = 100ms;
    return o;
  }

  std::string db_name_;
};

using testing::captured;
using testing::sequences;

// The support's own contract: a server that can no longer be stopped (here pg_ctl finds no
// postmaster.pid) is reported on stderr by ~PgCluster, which never throws (a throw from a
// destructor is std::terminate, which would end the whole test binary).
pid_t postmaster_pid = 0;
TEST(PgClusterDeathTest, DestructorReportsAServerItCannotStopInsteadOfThrowing) {
  const std::string why = PgCluster::unavailable_reason();
  if (!why.empty()) {
    const char* require = std::getenv("MAILROOM_REQUIRE_POSTGRES");
    if (require && std::string(require) == "1") FAIL() << why;
    GTEST_SKIP() << "PostgreSQL test skipped: " << why;
  }
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // a fresh process: no threads, no suite server
  EXPECT_EXIT(
      {
        // The server this child starts is stopped by the child in every case (also on an abort).
        std::set_terminate([] {
          if (postmaster_pid > 0) ::kill(postmaster_pid, SIGQUIT);
          std::abort();
        });
        {
          PgCluster cluster;
          const std::string pid_file = cluster.data_dir() + "/postmaster.pid";
          std::ifstream(pid_file) >> postmaster_pid;
          std::rename(pid_file.c_str(), (pid_file + ".aside").c_str());
        }
        if (postmaster_pid > 0) ::kill(postmaster_pid, SIGQUIT);
        std::fflush(nullptr);
        ::_exit(0);
      },
      ::testing::ExitedWithCode(0), "could not be stopped: pg_ctl stop failed");
}

// First use creates the schema and records its version.
TEST_F(PostgresJournal, CreatesAVersionedSchemaOnFirstUse) {
  { auto journal = open_postgres_journal(url()); }
  EXPECT_EQ(rows("SELECT version FROM mailroom_schema_version"),
            std::vector<std::string>{std::to_string(detail::kPgSchemaVersion)});
}

// PostgreSQL 15 grants CREATE on schema public only to the database's owner:
// a role that does not own the database is refused there, by a named error,
// and works in a schema of its own that the URL puts first on the search path
// (libpq's options parameter; docs/databases.md, "A role that does not own
// the database").
TEST_F(PostgresJournal, ANonOwnerRoleWritesTheSchemaItsUrlNames) {
  const std::string role = "shop_" + db_name_;
  rows("CREATE ROLE " + role + " LOGIN");
  rows("CREATE SCHEMA mailroom AUTHORIZATION " + role);
  const std::string base = "postgresql://" + role +
                           "@127.0.0.1:" + std::to_string(cluster()->port()) + "/" + db_name_ +
                           "?connect_timeout=5";
  try {
    open_postgres_journal(base);
    FAIL() << "a non-owner created the schema in public";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("permission denied for schema public"), std::string::npos)
        << e.what();
  }
  {
    auto journal = open_postgres_journal(base + "&options=-csearch_path%3Dmailroom");
    journal->append("s", "payload");
    journal->flush();
  }
  EXPECT_EQ(rows("SELECT count(*) FROM mailroom.mailroom_journal"), std::vector<std::string>{"1"});
  EXPECT_EQ(rows("SELECT count(*) FROM pg_tables WHERE schemaname = 'public' AND "
                 "tablename LIKE 'mailroom%'"),
            std::vector<std::string>{"0"});
}

// A version-1 database with records is migrated: the dead-letter columns
// are filled for the old rows and the live view sees them.
TEST_F(PostgresJournal, MigratesAVersion1DatabaseAndItsRows) {
  {
    detail::PgConnection c(url(), "setup");
    c.ensure();
    detail::migrate_pg_schema(c, 1);
    c.exec(
        "INSERT INTO mailroom_journal (stream_id, seq, payload) VALUES "
        "('mailroom-dead-letters-shop', 1, convert_to('" +
            captured(1, "/user/a") +
            "', 'UTF8')),"
            "('mailroom-dead-letters-shop', 2, convert_to('" +
            captured(2, "/user/b") +
            "', 'UTF8')),"
            "('mailroom-dead-letters-shop', 3, convert_to('{\"k\":\"removed\",\"id\":1}', 'UTF8')),"
            "('other', 1, '\\x00ff'::bytea)",
        "inserting v1 rows");
  }
  EXPECT_EQ(rows("SELECT version FROM mailroom_schema_version"), std::vector<std::string>{"1"});
  auto journal = open_postgres_journal(url());
  EXPECT_EQ(rows("SELECT version FROM mailroom_schema_version"), std::vector<std::string>{"2"});
  EXPECT_EQ(rows("SELECT stream_id, seq, kind, letter_id, recipient FROM mailroom_journal "
                 "ORDER BY stream_id, seq"),
            (std::vector<std::string>{"mailroom-dead-letters-shop|1|captured|1|/user/a",
                                      "mailroom-dead-letters-shop|2|captured|2|/user/b",
                                      "mailroom-dead-letters-shop|3|removed|1|NULL",
                                      "other|1|NULL|NULL|NULL"}));
  EXPECT_EQ(rows("SELECT system, id, recipient FROM mailroom_dead_letters"),
            std::vector<std::string>{"shop|2|/user/b"});
  EXPECT_EQ(journal->streams(), (std::vector<std::string>{"mailroom-dead-letters-shop", "other"}));
  EXPECT_EQ(journal->append("mailroom-dead-letters-shop", "x"), 4u);
}

// Restart recovery: the next journal reads what the previous one flushed,
// bytes unchanged, and numbers on.
TEST_F(PostgresJournal, RecordsSurviveAReopenAndNumberingContinues) {
  const std::string bytes("a\0b\xff", 4);
  {
    auto journal = open_postgres_journal(url());
    journal->append("s", "one");
    journal->append("s", bytes);
    journal->flush();
  }
  auto journal = open_postgres_journal(url());
  const auto read = journal->read("s");
  EXPECT_EQ(sequences(read), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(read.records.at(1).payload, bytes);
  EXPECT_EQ(journal->append("s", "three"), 3u);
}

// Two writers on one stream (two sessions, as two processes would be): the
// second is refused naming the holding session; after release it may write.
TEST_F(PostgresJournal, SecondWriterIsRefusedUntilTheFirstReleases) {
  auto first = open_postgres_journal(url());
  auto second = open_postgres_journal(url());
  first->acquire("s");
  try {
    second->acquire("s");
    FAIL() << "two writers on one stream";
  } catch (const JournalLockedError& e) {
    EXPECT_EQ(e.stream(), "s");
    EXPECT_NE(e.holder().find("mailroom pid"), std::string::npos) << e.holder();
  }
  EXPECT_NO_THROW(second->acquire("t"));
  first->release("s");
  EXPECT_NO_THROW(second->acquire("s"));
}

// The server dies in the middle of a burst of appends and comes back: every
// record, those acknowledged by a flush before the crash included, is stored
// exactly once, in order; meanwhile the backlog counted the waiting ones.
TEST_F(PostgresJournal, ServerKilledMidBurstLosesNothing) {
  auto journal = open_postgres_journal(url(), patient());
  constexpr int kAcknowledged = 4000;
  constexpr int kTotal = 20000;
  for (int i = 1; i <= kAcknowledged; ++i) journal->append("burst", "record " + std::to_string(i));
  journal->flush();  // acknowledged
  std::atomic<bool> burst_done{false};
  std::thread producer([&] {
    for (int i = kAcknowledged + 1; i <= kTotal; ++i) {
      journal->append("burst", "record " + std::to_string(i));
      if (i % 100 == 0) std::this_thread::sleep_for(1ms);
    }
    burst_done = true;
  });
  cluster()->kill();  // while the producer appends and the writer thread commits
  std::uint64_t most_waiting = 0;
  for (int i = 0; i < 30; ++i) {
    most_waiting = std::max(most_waiting, journal->backlog().value_or(0));
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_GT(most_waiting, 0u);
  EXPECT_NE(journal->unavailable_reason(), "");
  cluster()->start();
  producer.join();
  journal->flush();
  EXPECT_EQ(journal->backlog(), 0u);
  const auto read = journal->read("burst");
  ASSERT_EQ(read.records.size(), static_cast<std::size_t>(kTotal));
  for (int i = 0; i < kTotal; ++i) {
    ASSERT_EQ(read.records[i].sequence, static_cast<std::uint64_t>(i + 1));
    ASSERT_EQ(read.records[i].payload, "record " + std::to_string(i + 1));
  }
}

// While the server is down at most max_backlog records wait; the next append
// is refused by name and the waiting ones are stored once it is back.
TEST_F(PostgresJournal, BacklogIsBoundedWhileTheServerIsDown) {
  DatabaseJournalOptions options = patient();
  options.max_backlog = 100;
  auto journal = open_postgres_journal(url(), options);
  journal->acquire("s");
  cluster()->kill();
  for (int i = 1; i <= 100; ++i) journal->append("s", "r" + std::to_string(i));
  EXPECT_THROW(journal->append("s", "r101"), JournalBacklogFullError);
  EXPECT_EQ(journal->backlog(), 100u);
  cluster()->start();
  journal->flush();
  EXPECT_EQ(journal->read("s").records.size(), 100u);
}

// The lock goes with the connection: if another writer takes the stream
// while this one is disconnected, this one is fenced, not a second writer.
TEST_F(PostgresJournal, StreamTakenWhileDisconnectedFencesTheOldWriter) {
  DatabaseJournalOptions options = patient();
  options.flush_timeout = 3s;
  auto old_writer = open_postgres_journal(url(), options);
  old_writer->append("s", "before");
  old_writer->flush();
  cluster()->kill();
  cluster()->start();
  auto new_writer = open_postgres_journal(url());
  new_writer->acquire("s");
  old_writer->append("s", "late");
  EXPECT_THROW(old_writer->flush(), JournalLockedError);
  EXPECT_EQ(new_writer->read("s").records.size(), 1u);
  EXPECT_EQ(new_writer->append("s", "new"), 2u);
}

// Compaction trims the prefix; numbering survives even an empty stream.
TEST_F(PostgresJournal, CompactionTrimsThePrefixAndKeepsTheHighestSequence) {
  {
    auto journal = open_postgres_journal(url());
    for (int i = 1; i <= 10; ++i) journal->append("s", "r" + std::to_string(i));
    journal->delete_up_to("s", 7);
    EXPECT_EQ(sequences(journal->read("s")), (std::vector<std::uint64_t>{8, 9, 10}));
    journal->delete_up_to("s", 10);
    EXPECT_TRUE(journal->read("s").records.empty());
  }
  auto journal = open_postgres_journal(url());
  EXPECT_EQ(journal->append("s", "r11"), 11u);
}

// An identical retried row is kept; a different one is a named conflict.
TEST_F(PostgresJournal, RetriedAppendIsIdempotentAndADifferentRowConflicts) {
  auto journal = open_postgres_journal(url());
  journal->append("s", "one");
  journal->flush();
  {
    detail::PgConnection c(url(), "other");
    c.ensure();
    c.exec("INSERT INTO mailroom_journal (stream_id, seq, payload) VALUES ('s', 2, 'x'::bytea)",
           "planting a row");
  }
  journal->append("s", "two");
  EXPECT_THROW(journal->flush(), JournalConflictError);
  EXPECT_EQ(rows("SELECT count(*) FROM mailroom_journal WHERE stream_id = 's'"),
            std::vector<std::string>{"2"});
}

using System = testing::UrlSystem;

// A recipient subtree or a time window is applied in SQL (captured rows only,
// tombstones always read) and list_stream over it answers as over the whole stream.
TEST_F(PostgresJournal, ListFiltersAreNarrowedInSql) {
  auto reader = open_postgres_journal(url());
  testing::expect_narrowed_reads(url(), *reader);
}

// list_stream with a limit reads pages of live letters in SQL (LIMIT, below a sequence), and
// a walk of every page is the fold of the whole stream, newest first.
TEST_F(PostgresJournal, LiveLetterPagesWalkToTheFold) {
  auto writer = open_postgres_journal(url(), patient());
  testing::expect_live_pages_match_the_fold(url(), *writer);
}

// Live letters are counted per stream in SQL as a restore folds them (deadLetters.streams).
TEST_F(PostgresJournal, LetterCountsAreTheFoldedCounts) {
  auto journal = open_postgres_journal(url(), patient());
  testing::expect_counts_match_the_fold(*journal);
}

// Two systems on one database (selected by URL) list each other's letters
// read-only; psql sees both in the view; a restart restores its own.
TEST_F(PostgresJournal, SystemsShareOneDatabaseAndListEachOther) {
  {
    System shop("shop", url());
    System billing("billing", url());
    shop.lose("/user/cart", "cart-1");
    billing.lose("/user/invoices", "invoice-1");
    billing.queue().flush();
    EXPECT_EQ(
        shop.queue().list_streams(),
        (std::vector<std::string>{"mailroom-dead-letters-billing", "mailroom-dead-letters-shop"}));
    const auto theirs = shop.queue().list_stream("mailroom-dead-letters-billing");
    ASSERT_EQ(theirs.size(), 1u);
    EXPECT_EQ(theirs.at(0).value, "invoice-1");
    EXPECT_EQ(theirs.at(0).recipient_path, "/user/invoices");
  }
  EXPECT_EQ(
      rows("SELECT system, recipient, record->'p'->>'v' FROM mailroom_dead_letters "
           "ORDER BY system"),
      (std::vector<std::string>{"billing|/user/invoices|invoice-1", "shop|/user/cart|cart-1"}));
  System shop("shop", url());
  ASSERT_EQ(shop.queue().list().size(), 1u);
}

// A long stream: every record is stored and read back in order. 100k here
// (~9 s on a loaded 2-core machine); the 1M run is
// MAILROOM_PG_BIG_STREAM=1000000 (docs/databases.md has its figure).
TEST_F(PostgresJournal, LongStreamIsStoredAndReadBackInOrder) {
  const char* env = std::getenv("MAILROOM_PG_BIG_STREAM");
  const std::size_t total = env ? std::stoull(env) : 100000;
  DatabaseJournalOptions options = patient();
  options.max_backlog = total;
  options.batch_records = 2000;
  auto journal = open_postgres_journal(url(), options);
  for (std::size_t i = 1; i <= total; ++i) journal->append("big", captured(i, "/user/a"));
  journal->flush();
  const auto read = journal->read("big");
  ASSERT_EQ(read.records.size(), total);
  for (std::size_t i = 0; i < total; ++i) ASSERT_EQ(read.records[i].sequence, i + 1);
  EXPECT_EQ(read.records.back().payload, captured(total, "/user/a"));
}

}  // namespace
}  // namespace mailroom
