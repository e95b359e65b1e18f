// The SQLite journal against real database files: WAL and the versioned
// schema (a v1 file migrated), restart recovery, one writer per stream
// (another journal, another process, a dead holder, a lease taken over),
// idempotent appends, compaction, the live-entries view, selection by
// mailroom.journal.url, and the cross-stream view of the dead-letter queue.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <vector>

#include "common/live_letter_count_sql.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/journal_url.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/sqlite_journal.hpp"
#include "sqlite/sqlite_backend.hpp"
#include "sqlite/sqlite_schema.hpp"
#include "support/journal_records.hpp"
#include "support/letter_counts.hpp"
#include "support/live_pages.hpp"
#include "support/narrowed_read.hpp"
#include "support/temp_dir.hpp"
#include "support/url_system.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::TempDir;

// A plain connection, as the sqlite3 CLI would be.
struct Cli {
  explicit Cli(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) throw std::runtime_error("open " + path);
    sqlite3_busy_timeout(db, 5000);
  }
  ~Cli() { sqlite3_close(db); }
  // Every row of a query, columns joined by '|' (NULL as "NULL").
  std::vector<std::string> rows(const std::string& sql) {
    std::vector<std::string> out;
    sqlite3_stmt* s = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sqlite3_errmsg(db));
    }
    while (sqlite3_step(s) == SQLITE_ROW) {
      std::string row;
      for (int c = 0; c < sqlite3_column_count(s); ++c) {
        const auto* t = sqlite3_column_text(s, c);
        row += (c ? "|" : "") + (t ? std::string(reinterpret_cast<const char*>(t)) : "NULL"s);
      }
      out.push_back(row);
    }
    sqlite3_finalize(s);
    return out;
  }
  void exec(const std::string& sql) {
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sqlite3_errmsg(db));
    }
  }
  sqlite3* db = nullptr;
};

using testing::captured;
using testing::removed;
using testing::sequences;

// The file is in WAL mode and records the schema version it was built with.
TEST(SqliteJournal, CreatesAWalDatabaseWithAVersionedSchema) {
  TempDir dir;
  { auto journal = open_sqlite_journal(dir.file("j.db")); }
  Cli cli(dir.file("j.db"));
  EXPECT_EQ(cli.rows("PRAGMA journal_mode"), std::vector<std::string>{"wal"});
  EXPECT_EQ(cli.rows("SELECT version FROM mailroom_schema_version"),
            std::vector<std::string>{std::to_string(detail::kSqliteSchemaVersion)});
}

// A version-1 file with records is migrated in place: the dead-letter
// columns are filled for the old rows and the live view works on them.
TEST(SqliteJournal, MigratesAVersion1DatabaseAndItsRows) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  {
    Cli cli(path);
    detail::migrate_sqlite_schema(cli.db, "sqlite:" + path, 1);
    for (auto [seq, payload] : std::vector<std::pair<int, std::string>>{
             {1, captured(1, "/user/a")}, {2, captured(2, "/user/b")}, {3, removed(1)}}) {
      cli.exec(
          "INSERT INTO mailroom_journal (stream_id, seq, payload) VALUES "
          "('mailroom-dead-letters-shop', " +
          std::to_string(seq) + ", CAST('" + payload + "' AS BLOB))");
    }
    EXPECT_EQ(cli.rows("SELECT version FROM mailroom_schema_version"),
              std::vector<std::string>{"1"});
  }
  auto journal = open_sqlite_journal(path);
  EXPECT_EQ(sequences(journal->read("mailroom-dead-letters-shop")),
            (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(journal->streams(), std::vector<std::string>{"mailroom-dead-letters-shop"});
  EXPECT_EQ(journal->append("mailroom-dead-letters-shop", removed(2)), 4u);
  journal->flush();
  Cli cli(path);
  EXPECT_EQ(cli.rows("SELECT version FROM mailroom_schema_version"),
            std::vector<std::string>{std::to_string(detail::kSqliteSchemaVersion)});
  EXPECT_EQ(cli.rows("SELECT seq, kind, letter_id, recipient FROM mailroom_journal ORDER BY seq"),
            (std::vector<std::string>{"1|captured|1|/user/a", "2|captured|2|/user/b",
                                      "3|removed|1|NULL", "4|removed|2|NULL"}));
  EXPECT_TRUE(cli.rows("SELECT id FROM mailroom_dead_letters").empty());
}

// The view and the per-stream count name their indexes: without ANALYZE
// statistics SQLite searched each letter's later rows by the primary key
// (every later row of the stream, per row: 5.3 s for 10,000 letters).
TEST(SqliteJournal, TheLiveViewAndTheCountSearchTheLetterIndex) {
  TempDir dir;
  const std::string path = dir.file("plan.db");
  { auto journal = open_sqlite_journal(path); }
  Cli cli(path);
  std::string plan;
  for (const std::string& row :
       cli.rows("EXPLAIN QUERY PLAN SELECT count(*) FROM mailroom_dead_letters")) {
    plan += row + "\n";
  }
  EXPECT_NE(plan.find("USING INDEX mailroom_journal_letter"), std::string::npos) << plan;
  EXPECT_NE(plan.find("USING INDEX mailroom_journal_cleared"), std::string::npos) << plan;
  EXPECT_EQ(plan.find("USING PRIMARY KEY"), std::string::npos) << plan;
  std::string count_plan;
  for (const std::string& row :
       cli.rows("EXPLAIN QUERY PLAN " + detail::live_letter_count_sql(true))) {
    count_plan += row + "\n";
  }
  EXPECT_EQ(count_plan.find("USING PRIMARY KEY"), std::string::npos) << count_plan;
}

// A version-2 file, as an older build left it (its view without the
// indexes), is migrated: the view is replaced by the indexed one.
TEST(SqliteJournal, MigratesAVersion2ViewToTheIndexedOne) {
  TempDir dir;
  const std::string path = dir.file("v2.db");
  {
    Cli cli(path);
    detail::migrate_sqlite_schema(cli.db, "sqlite:" + path, 2);
    cli.exec(
        "CREATE VIEW mailroom_dead_letters AS SELECT j.letter_id AS id FROM mailroom_journal j "
        "WHERE j.kind = 'captured' AND NOT EXISTS (SELECT 1 FROM mailroom_journal l WHERE "
        "l.stream_id = j.stream_id AND l.letter_id = j.letter_id AND l.seq > j.seq)");
  }
  { auto journal = open_sqlite_journal(path); }
  Cli cli(path);
  EXPECT_EQ(cli.rows("SELECT version FROM mailroom_schema_version"),
            std::vector<std::string>{std::to_string(detail::kSqliteSchemaVersion)});
  const auto sql = cli.rows("SELECT sql FROM sqlite_master WHERE name = 'mailroom_dead_letters'");
  ASSERT_EQ(sql.size(), 1u);
  EXPECT_NE(sql[0].find("INDEXED BY mailroom_journal_letter"), std::string::npos);
}

// A file of a newer schema is refused by name, never written.
TEST(SqliteJournal, RefusesASchemaNewerThanThisBuild) {
  TempDir dir;
  { auto journal = open_sqlite_journal(dir.file("j.db")); }
  Cli(dir.file("j.db")).exec("UPDATE mailroom_schema_version SET version = 99");
  EXPECT_THROW(open_sqlite_journal(dir.file("j.db")), JournalSchemaError);
}

// Restart recovery: records flushed by one journal are read by the next one
// on the file, which numbers on from the highest sequence.
TEST(SqliteJournal, RecordsSurviveAReopenAndNumberingContinues) {
  TempDir dir;
  {
    auto journal = open_sqlite_journal(dir.file("j.db"));
    for (int i = 0; i < 3; ++i) journal->append("s", "payload " + std::to_string(i));
    journal->flush();
  }
  auto journal = open_sqlite_journal(dir.file("j.db"));
  const auto read = journal->read("s");
  EXPECT_EQ(sequences(read), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(read.records.at(2).payload, "payload 2");
  EXPECT_EQ(journal->append("s", "payload 3"), 4u);
}

// Bytes go in and come out unchanged (a payload is opaque, NUL included).
TEST(SqliteJournal, PayloadBytesRoundTripUnchanged) {
  TempDir dir;
  auto journal = open_sqlite_journal(dir.file("j.db"));
  const std::string bytes("a\0b\xff\n", 5);
  journal->append("s", bytes);
  EXPECT_EQ(journal->read("s").records.at(0).payload, bytes);
}

// Two journals of one process on one stream: the second is refused by name;
// other streams are free, and after release the stream can be taken.
TEST(SqliteJournal, SecondWriterInTheSameProcessIsRefused) {
  TempDir dir;
  auto first = open_sqlite_journal(dir.file("j.db"));
  auto second = open_sqlite_journal(dir.file("j.db"));
  first->acquire("s");
  try {
    second->acquire("s");
    FAIL() << "two writers on one stream";
  } catch (const JournalLockedError& e) {
    EXPECT_EQ(e.stream(), "s");
    EXPECT_EQ(e.holder(), "another journal of this process");
  }
  EXPECT_NO_THROW(second->acquire("t"));
  first->release("s");
  EXPECT_NO_THROW(second->acquire("s"));
}

// Another process holding the stream refuses this one; once that process is
// dead (killed, lease never released) its lease is taken over.
TEST(SqliteJournal, WriterInAnotherProcessIsRefusedUntilItDies) {
  TempDir dir;
  const std::string path = dir.file("j.db");
  { auto create = open_sqlite_journal(path); }
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(ready[0]);
    auto journal = open_sqlite_journal(path);
    journal->append("s", "from the child");
    journal->flush();
    char ok = 1;
    (void)!::write(ready[1], &ok, 1);
    ::pause();
    ::_exit(0);
  }
  struct Reaper {  // the child never outlives the test, whatever fails
    pid_t pid;
    ~Reaper() {
      if (pid <= 0) return;
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
  } reaper{child};
  ::close(ready[1]);
  char ok = 0;
  ASSERT_EQ(::read(ready[0], &ok, 1), 1);
  ::close(ready[0]);
  auto journal = open_sqlite_journal(path);
  try {
    journal->acquire("s");
    FAIL() << "a second writer beside a live process";
  } catch (const JournalLockedError& e) {
    EXPECT_EQ(e.holder(), "process " + std::to_string(child));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  reaper.pid = -1;
  journal->acquire("s");
  EXPECT_EQ(journal->append("s", "after"), 2u);
  EXPECT_EQ(journal->read("s").records.at(0).payload, "from the child");
}

// A writer whose lease was taken over (judged dead) is fenced: its next
// write fails with JournalLockedError and its records stay queued.
TEST(SqliteJournal, WriterWhoseLeaseWasTakenIsFenced) {
  TempDir dir;
  auto journal = open_sqlite_journal(dir.file("j.db"));
  journal->acquire("s");
  Cli(dir.file("j.db"))
      .exec(
          "UPDATE mailroom_streams SET writer_token = 'intruder', writer_pid = 1 "
          "WHERE stream_id = 's'");
  journal->append("s", "late");
  EXPECT_THROW(journal->flush(), JournalLockedError);
  EXPECT_EQ(journal->backlog(), 1u);
  EXPECT_TRUE(Cli(dir.file("j.db")).rows("SELECT seq FROM mailroom_journal").empty());
}

// An identical row under (stream, seq) is kept as is; a different one is a
// named conflict and nothing of that transaction is stored.
TEST(SqliteJournal, RetriedAppendIsIdempotentAndADifferentRowConflicts) {
  TempDir dir;
  detail::SqliteBackend backend(dir.file("j.db"), false);
  backend.acquire("s");
  const std::vector<DatabaseRow> rows{make_database_row(1, "one"), make_database_row(2, "two")};
  backend.append("s", rows);
  backend.append("s", rows);
  EXPECT_EQ(backend.read("s").size(), 2u);
  EXPECT_THROW(backend.append("s", {make_database_row(3, "three"), make_database_row(2, "TWO")}),
               JournalConflictError);
  const auto after = backend.read("s");
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after.at(1).payload, "two");
}

// Compaction trims the prefix; numbering continues after a restart even when
// every record was deleted.
TEST(SqliteJournal, CompactionTrimsThePrefixAndKeepsTheHighestSequence) {
  TempDir dir;
  {
    auto journal = open_sqlite_journal(dir.file("j.db"));
    for (int i = 1; i <= 10; ++i) journal->append("s", "r" + std::to_string(i));
    journal->delete_up_to("s", 7);
    EXPECT_EQ(sequences(journal->read("s")), (std::vector<std::uint64_t>{8, 9, 10}));
    journal->delete_up_to("s", 10);
    EXPECT_TRUE(journal->read("s").records.empty());
  }
  auto journal = open_sqlite_journal(dir.file("j.db"));
  EXPECT_EQ(journal->append("s", "r11"), 11u);
}

// Read-only: a missing or foreign file is an error, nothing is created, and
// writing is refused.
TEST(SqliteJournal, ReadOnlyOpenNeverCreatesOrWrites) {
  TempDir dir;
  EXPECT_ANY_THROW(open_sqlite_journal(dir.file("missing.db"), {}, {.read_only = true}));
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing.db")));
  { Cli(dir.file("foreign.db")).exec("CREATE TABLE t (x)"); }
  EXPECT_THROW(open_sqlite_journal(dir.file("foreign.db"), {}, {.read_only = true}),
               JournalSchemaError);
  { auto writer = open_sqlite_journal(dir.file("j.db")); }
  auto reader = open_sqlite_journal(dir.file("j.db"), {}, {.read_only = true});
  EXPECT_THROW(reader->append("s", "x"), std::logic_error);
}

// sqlite:/abs, sqlite:///abs and sqlite:rel name files; anything else is named.
TEST(SqliteJournal, UrlsNameFiles) {
  EXPECT_EQ(sqlite_path_from_url("sqlite:/var/x.db"), "/var/x.db");
  EXPECT_EQ(sqlite_path_from_url("sqlite:///var/x.db"), "/var/x.db");
  EXPECT_EQ(sqlite_path_from_url("SQLite:x.db"), "x.db");
  EXPECT_THROW(sqlite_path_from_url("sqlite:"), OptionsError);
  EXPECT_THROW(sqlite_path_from_url("sqlite://host/x.db"), OptionsError);
  EXPECT_THROW(sqlite_path_from_url("postgresql://x"), OptionsError);
}

// A sqlite: URL is a URL: escapes are decoded and "?" starts its options
// (before, "a%20b.db" and "x.db?mode=ro" were file names, taken literally).
TEST(SqliteJournal, UrlsAreDecodedAndTakeModeAsAnOption) {
  EXPECT_EQ(sqlite_path_from_url("sqlite:/var/a%20b.db"), "/var/a b.db");
  EXPECT_EQ(sqlite_path_from_url("sqlite:///var/%C3%A9t%C3%A9.db"), "/var/\xC3\xA9t\xC3\xA9.db");
  EXPECT_EQ(sqlite_path_from_url("sqlite:x.db?mode=ro"), "x.db");
  EXPECT_TRUE(parse_sqlite_url("sqlite:x.db?mode=ro").read_only);
  EXPECT_FALSE(parse_sqlite_url("sqlite:x.db?mode=rwc").read_only);
  EXPECT_FALSE(parse_sqlite_url("sqlite:x.db").read_only);
  for (const char* bad : {"sqlite:x%2.db", "sqlite:x%zz.db", "sqlite:x.db%", "sqlite:x%00.db",
                          "sqlite:x.db?cache=shared", "sqlite:?mode=ro"}) {
    EXPECT_THROW(parse_sqlite_url(bad), OptionsError) << bad;
  }
  // mode=ro through the URL opens read-only: nothing is created.
  TempDir dir;
  const std::string path = dir.file("never created.db");
  EXPECT_ANY_THROW(open_journal_url("sqlite:" + dir.file("never%20created.db") + "?mode=ro"));
  EXPECT_FALSE(std::filesystem::exists(path));
  { auto journal = open_journal_url("sqlite:" + dir.file("made%20here.db")); }
  EXPECT_TRUE(std::filesystem::exists(dir.file("made here.db")));
}

// A system on the SQLite file at db_path, selected by URL.
struct System : testing::UrlSystem {
  System(const std::string& name, const std::string& db_path)
      : UrlSystem(name, "sqlite:" + db_path) {}
};

// mailroom.journal.url selects the SQLite journal: what a system captured
// before terminate() is there for the next system of that name.
TEST(SqliteJournal, SystemSelectedByUrlRestoresItsLettersAfterARestart) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  {
    System shop("shop", db);
    shop.lose("/user/gone", "order-1");
    shop.lose("/user/gone/deeper", "order-2");
  }
  System shop("shop", db);
  const auto entries = shop.queue().list();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries.at(0).recipient_path, "/user/gone/deeper");
  EXPECT_EQ(std::get<DeadLetterEntry::Captured>(entries.at(1).payload).message.get<std::string>(),
            "order-1");
  // The view a sqlite3 user queries: live letters per system.
  EXPECT_EQ(Cli(db).rows("SELECT system, id, recipient FROM mailroom_dead_letters ORDER BY id"),
            (std::vector<std::string>{"shop|1|/user/gone", "shop|2|/user/gone/deeper"}));
}

// A replayed letter's tombstone takes it out of the view.
TEST(SqliteJournal, ViewLeavesOutTombstonedLetters) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  System shop("shop", db);
  shop.lose("/user/gone", "order-1");
  shop.lose("/user/gone", "order-2");
  shop.queue().clear();
  shop.lose("/user/gone", "order-3");
  shop.queue().flush();
  EXPECT_EQ(Cli(db).rows("SELECT id FROM mailroom_dead_letters"), std::vector<std::string>{"3"});
}

// Two systems (two processes' worth) on one file: each lists the other's
// letters read-only, by stream and recipient, and never writes that stream.
TEST(SqliteJournal, QueueListsTheLettersOfOtherStreamsReadOnly) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  System shop("shop", db);
  System billing("billing", db);
  shop.lose("/user/cart", "cart-1");
  billing.lose("/user/invoices/march", "invoice-1");
  billing.lose("/user/refunds", "refund-1");
  billing.queue().flush();
  EXPECT_EQ(shop.queue().list_streams(), (std::vector<std::string>{"mailroom-dead-letters-billing",
                                                                   "mailroom-dead-letters-shop"}));
  const auto all = shop.queue().list_stream("mailroom-dead-letters-billing");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all.at(0).recipient_path, "/user/refunds");  // newest first
  EXPECT_EQ(all.at(1).value, "invoice-1");
  DeadLetterFilter invoices;
  invoices.recipient = "mailroom://billing/user/invoices";
  const auto some = shop.queue().list_stream("mailroom-dead-letters-billing", invoices);
  ASSERT_EQ(some.size(), 1u);
  EXPECT_EQ(some.at(0).value, "invoice-1");
  EXPECT_EQ(shop.queue().list_stream("mailroom-dead-letters-shop").size(), 1u);
  // Billing's stream still has billing's writer: nobody else can take it.
  auto intruder = open_sqlite_journal(db);
  EXPECT_THROW(intruder->acquire("mailroom-dead-letters-billing"), JournalLockedError);
  EXPECT_EQ(Cli(db).rows("SELECT count(*) FROM mailroom_journal "
                         "WHERE stream_id = 'mailroom-dead-letters-billing'"),
            std::vector<std::string>{"2"});
}

// A recipient subtree or a time window is applied in SQL (captured rows only,
// tombstones always read) and list_stream over it answers as over the whole stream.
TEST(SqliteJournal, ListFiltersAreNarrowedInSql) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  auto reader = open_sqlite_journal(db);
  testing::expect_narrowed_reads("sqlite:" + db, *reader);
}

// list_stream with a limit reads pages of live letters in SQL (LIMIT, below a sequence), and
// a walk of every page is the fold of the whole stream, newest first.
TEST(SqliteJournal, LiveLetterPagesWalkToTheFold) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  auto writer = open_sqlite_journal(db);
  testing::expect_live_pages_match_the_fold("sqlite:" + db, *writer);
}

// The pages need no schema change: a version-1 file with rows opens (migrated to version 2
// as before, nothing more) and pages its live letters as the fold keeps them.
TEST(SqliteJournal, AVersion1DatabasePagesItsLiveLetters) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  const std::string stream = "mailroom-dead-letters-shop";
  {
    Cli cli(path);
    detail::migrate_sqlite_schema(cli.db, "sqlite:" + path, 1);
    int seq = 0;
    for (const std::string& payload :
         {captured(1, "/user/a"), captured(2, "/user/b"), removed(1), captured(3, "/user/a"),
          captured(4, "/user/c"), std::string(R"({"k":"released","id":3})")}) {
      cli.exec("INSERT INTO mailroom_journal (stream_id, seq, payload) VALUES ('" + stream + "', " +
               std::to_string(++seq) + ", CAST('" + payload + "' AS BLOB))");
    }
  }
  auto journal = open_sqlite_journal(path);
  auto page = journal->read_live_letters(stream, {}, std::nullopt, 2);
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->size(), 2u);
  EXPECT_EQ((*page)[0].captured.sequence, 5u);
  EXPECT_EQ((*page)[1].captured.sequence, 4u);
  EXPECT_TRUE((*page)[1].released);  // letter 3's quarantine was lifted after its capture
  auto rest = journal->read_live_letters(stream, {}, 4, 10);
  ASSERT_TRUE(rest.has_value());
  ASSERT_EQ(rest->size(), 1u);  // letter 2; letter 1 is tombstoned
  EXPECT_EQ((*rest)[0].captured.sequence, 2u);
  Cli cli(path);
  EXPECT_EQ(cli.rows("SELECT version FROM mailroom_schema_version"),
            std::vector<std::string>{std::to_string(detail::kSqliteSchemaVersion)});
}

// Live letters are counted per stream in SQL as a restore folds them (deadLetters.streams).
TEST(SqliteJournal, LetterCountsAreTheFoldedCounts) {
  TempDir dir;
  auto journal = open_sqlite_journal(dir.file("letters.db"));
  testing::expect_counts_match_the_fold(*journal);
}

// Runs mailroom-dlq; its standard output, and the exit code in *code.
std::string dlq(const std::string& args, int* code) {
  std::string out;
  FILE* pipe = ::popen((std::string(MAILROOM_DLQ_BINARY) + " " + args + " 2>&1").c_str(), "r");
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = ::pclose(pipe);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// mailroom-dlq reads a database by URL across streams, while its writers
// run, without taking a lease or writing a row.
TEST(SqliteJournal, MailroomDlqListsADatabaseAcrossStreams) {
  TempDir dir;
  const std::string db = dir.file("letters.db");
  System shop("shop", db);
  System billing("billing", db);
  shop.lose("/user/cart", "cart-1");
  billing.lose("/user/invoices", "invoice-1");
  shop.queue().flush();
  billing.queue().flush();
  const auto before = Cli(db).rows("SELECT * FROM mailroom_streams ORDER BY stream_id");
  int code = -1;
  const std::string table = dlq("list sqlite:" + db, &code);
  EXPECT_EQ(code, 0) << table;
  const auto billing_at = table.find("== mailroom-dead-letters-billing");
  const auto shop_at = table.find("== mailroom-dead-letters-shop");
  ASSERT_NE(billing_at, std::string::npos) << table;
  ASSERT_NE(shop_at, std::string::npos) << table;
  EXPECT_NE(table.find("/user/invoices", billing_at), std::string::npos);
  EXPECT_NE(table.find("/user/cart", shop_at), std::string::npos);
  const auto json = nlohmann::json::parse(dlq("list sqlite:" + db + " --json", &code));
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json.at(0).at("stream"), "mailroom-dead-letters-billing");
  EXPECT_EQ(json.at(1).at("stream"), "mailroom-dead-letters-shop");
  const std::string one = dlq("show sqlite:" + db + " 1 --system billing", &code);
  EXPECT_EQ(code, 0) << one;
  EXPECT_NE(one.find("invoice-1"), std::string::npos) << one;
  dlq("show sqlite:" + db + " 1", &code);
  EXPECT_EQ(code, 1);  // two queues: which one is asked for
  EXPECT_EQ(Cli(db).rows("SELECT * FROM mailroom_streams ORDER BY stream_id"), before);
  dlq("list sqlite:" + dir.file("missing.db"), &code);
  EXPECT_EQ(code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.file("missing.db")));
}

// A scheme no linked library registered fails create() by name.
TEST(SqliteJournal, UnknownSchemeFailsCreateByName) {
  try {
    ActorSystem::create("shop", ActorSystemOptions::create()
                                    .with_dispatcher(std::make_shared<ManualDispatcher>())
                                    .with_config("mailroom.journal.url = \"mysql://db/x\"\n"
                                                 "mailroom.dead-letters.store = persistent\n"));
    FAIL() << "created with an unknown journal scheme";
  } catch (const UnknownJournalSchemeError& e) {
    EXPECT_EQ(e.scheme(), "mysql");
    EXPECT_NE(std::string(e.what()).find("sqlite"), std::string::npos);  // the known ones
  }
}

}  // namespace
}  // namespace mailroom
