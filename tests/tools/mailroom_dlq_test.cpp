// mailroom-dlq against journals the core wrote: every command's output, the
// exit codes, errors that name the problem, damage reported (exit 3) with the
// readable prefix still shown, and the journal bytes never changed.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/manual_dispatcher.hpp"

namespace mailroom {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;

struct TempDir {
  TempDir() {
    path = fs::temp_directory_path() /
           ("mailroom-dlq-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::string str() const { return path.string(); }
  fs::path path;
};

struct ToolRun {
  int code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Runs the tool with `args` (already shell-quoted where needed).
ToolRun dlq(const std::string& args) {
  const fs::path err =
      fs::temp_directory_path() / ("mailroom-dlq-err-" + std::to_string(::getpid()));
  const std::string command = std::string(MAILROOM_DLQ_BINARY) + " " + args + " 2>" + err.string();
  ToolRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
    run.out.append(buffer, n);
  const int status = ::pclose(pipe);
  run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.err = slurp(err);
  fs::remove(err);
  return run;
}

// A system named `name` whose dead letters go to a FileJournal in `dir`.
void write_letters(const std::string& dir, const std::string& name, int extra = 0) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create(
      name, ActorSystemOptions::create()
                .with_dispatcher(dispatcher)
                .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
                .with_journal_dir(dir));
  system->actor_selection("/user/orders/a").tell("order-1"s);
  system->actor_selection("/user/orders/b").tell(42);
  system->actor_selection("/user/billing").tell(2.5);
  for (int i = 0; i < extra; ++i) system->actor_selection("/user/x").tell(i);
  dispatcher->run_until_idle();
  system->dead_letter_queue().flush();
  system->terminate();
  system->await_termination();
}

fs::path journal_file(const TempDir& dir, const std::string& system = "shop") {
  return dir.path / ("mailroom-dead-letters-" + system + ".journal");
}

// --recipient is the core's subtree rule (ActorPath::in_subtree): on a name boundary, so
// /user/orders never covers /user/orders-archive, and a full path of the system is its local one.
TEST(MailroomDlq, RecipientFilterRespectsNameBoundaries) {
  TempDir dir;
  {
    auto dispatcher = std::make_shared<ManualDispatcher>();
    auto system = ActorSystem::create(
        "shop", ActorSystemOptions::create()
                    .with_dispatcher(dispatcher)
                    .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
                    .with_journal_dir(dir.str()));
    system->actor_selection("/user/orders").tell("own"s);
    system->actor_selection("/user/orders/a").tell("child"s);
    system->actor_selection("/user/orders-archive").tell("sibling"s);
    dispatcher->run_until_idle();
    system->terminate();
    system->await_termination();
  }
  for (const char* root : {"/user/orders", "/user/orders/", "mailroom://shop/user/orders"}) {
    ToolRun run = dlq("list " + dir.str() + " --recipient " + root + " --json");
    ASSERT_EQ(run.code, 0) << run.err;
    std::vector<std::string> got;
    for (const auto& e : nlohmann::json::parse(run.out)) got.push_back(e["payload"]["message"]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::string>{"child", "own"})) << root;
  }
}

TEST(MailroomDlq, ListsNewestFirstWithFiltersAndAsJson) {
  TempDir dir;
  write_letters(dir.str(), "shop");
  const std::string before = slurp(journal_file(dir));

  ToolRun all = dlq("list " + dir.str());
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_LT(all.out.find("/user/billing"), all.out.find("/user/orders/a")) << all.out;
  EXPECT_NE(all.out.find("3 of 3 dead letters"), std::string::npos) << all.out;
  // Why each letter died is a column (a selection that reached nobody here).
  EXPECT_NE(all.out.find("CAUSE"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find(" no-recipient "), std::string::npos) << all.out;

  ToolRun orders = dlq("list " + dir.str() + " --recipient mailroom://shop/user/orders --json");
  ASSERT_EQ(orders.code, 0) << orders.err;
  const auto json = nlohmann::json::parse(orders.out);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[0]["recipientPath"], "/user/orders/b");
  EXPECT_EQ(json[0]["payload"]["message"], 42);
  EXPECT_EQ(json[0]["cause"], "no-recipient");
  EXPECT_TRUE(json[0]["dropPolicy"].is_null());
  EXPECT_EQ(json[1]["payload"]["message"], "order-1");

  ToolRun limited = dlq("list " + dir.str() + " --limit 1 --since 1h --json");
  ASSERT_EQ(limited.code, 0) << limited.err;
  EXPECT_EQ(nlohmann::json::parse(limited.out).size(), 1u);
  ToolRun future = dlq("list " + dir.str() + " --since 2999-01-01 --json");
  EXPECT_EQ(nlohmann::json::parse(future.out).size(), 0u);

  EXPECT_EQ(slurp(journal_file(dir)), before) << "reading changed the journal";
}

TEST(MailroomDlq, ShowExportAndStats) {
  TempDir dir;
  write_letters(dir.str(), "shop");

  ToolRun show = dlq("show " + dir.str() + " 1");
  ASSERT_EQ(show.code, 0) << show.err;
  EXPECT_NE(show.out.find("recipient:   /user/orders/a"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("\"order-1\""), std::string::npos) << show.out;

  ToolRun lines = dlq("export " + dir.str());
  ASSERT_EQ(lines.code, 0) << lines.err;
  std::istringstream in(lines.out);
  std::string line;
  std::vector<std::string> ids;
  while (std::getline(in, line)) ids.push_back(nlohmann::json::parse(line)["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"1", "2", "3"}));

  const fs::path file = dir.path / "export.json";
  ToolRun panel = dlq("export " + dir.str() + " --format panel --output " + file.string());
  ASSERT_EQ(panel.code, 0) << panel.err;
  const auto exported = nlohmann::json::parse(slurp(file));
  EXPECT_EQ(exported["format"], "mailroom-devtools-export");
  EXPECT_EQ(exported["version"], 1);
  ASSERT_EQ(exported["deadLetters"].size(), 3u);
  EXPECT_EQ(exported["deadLetters"][0]["id"], "3");  // newest first, as the panel lists

  ToolRun stats = dlq("stats " + dir.str() + " --json");
  ASSERT_EQ(stats.code, 0) << stats.err;
  const auto s = nlohmann::json::parse(stats.out);
  EXPECT_EQ(s["letters"], 3);
  EXPECT_EQ(s["records"]["captured"], 3);
  EXPECT_EQ(s["byRecipient"]["/user/billing"], 1);
  EXPECT_EQ(s["damaged"], false);
}

TEST(MailroomDlq, DamagedJournalIsReportedNotRefusedAndNotRepaired) {
  TempDir dir;
  write_letters(dir.str(), "shop");
  {
    std::ofstream torn(journal_file(dir), std::ios::binary | std::ios::app);
    torn << "\x13\x00\x00garbage";  // a torn record after the valid ones
  }
  const std::string before = slurp(journal_file(dir));
  ToolRun list = dlq("list " + dir.str() + " --json");
  EXPECT_EQ(list.code, 3);
  EXPECT_NE(list.err.find("damaged at byte"), std::string::npos) << list.err;
  EXPECT_NE(list.err.find("was not changed"), std::string::npos) << list.err;
  EXPECT_EQ(nlohmann::json::parse(list.out).size(), 3u);  // the valid prefix is all there
  ToolRun stats = dlq("stats " + dir.str() + " --json");
  EXPECT_EQ(stats.code, 3);
  EXPECT_EQ(nlohmann::json::parse(stats.out)["damaged"], true);
  EXPECT_EQ(slurp(journal_file(dir)), before) << "the damaged journal was rewritten";
}

TEST(MailroomDlq, ErrorsNameTheProblem) {
  TempDir dir;
  ToolRun missing = dlq("list " + (dir.path / "nope").string());
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("no journal folder at"), std::string::npos) << missing.err;
  EXPECT_FALSE(fs::exists(dir.path / "nope")) << "the tool created the folder";

  ToolRun empty = dlq("stats " + dir.str());
  EXPECT_EQ(empty.code, 1);
  EXPECT_NE(empty.err.find("no dead-letter queue journal"), std::string::npos) << empty.err;

  write_letters(dir.str(), "shop");
  write_letters(dir.str(), "billing", 2);
  ToolRun two = dlq("list " + dir.str());
  EXPECT_EQ(two.code, 1);
  EXPECT_NE(two.err.find("mailroom-dead-letters-billing"), std::string::npos) << two.err;
  EXPECT_NE(two.err.find("--system"), std::string::npos) << two.err;
  ToolRun chosen = dlq("stats " + dir.str() + " --system billing --json");
  ASSERT_EQ(chosen.code, 0) << chosen.err;
  EXPECT_EQ(nlohmann::json::parse(chosen.out)["letters"], 5);

  ToolRun unknown = dlq("show " + dir.str() + " 99 --system shop");
  EXPECT_EQ(unknown.code, 1);
  EXPECT_NE(unknown.err.find("no dead letter with id 99"), std::string::npos) << unknown.err;

  EXPECT_EQ(dlq("").code, 2);
  EXPECT_EQ(dlq("frob " + dir.str()).code, 2);
  ToolRun bad_since = dlq("list " + dir.str() + " --since yesterday");
  EXPECT_EQ(bad_since.code, 2);
  EXPECT_NE(bad_since.err.find("'yesterday'"), std::string::npos) << bad_since.err;
  EXPECT_EQ(dlq("show " + dir.str() + " --system shop abc").code, 2);
  EXPECT_EQ(dlq("--help").code, 0);
}

// A persistence id too long for a file name is stored under a shortened name;
// --persistence-id still finds it.
TEST(MailroomDlq, FindsALongPersistenceIdByName) {
  TempDir dir;
  const std::string id = "mailroom-dead-letters-" + std::string(200, 'x');
  auto dispatcher = std::make_shared<ManualDispatcher>();
  {
    auto system = ActorSystem::create(
        "long",
        ActorSystemOptions::create()
            .with_dispatcher(dispatcher)
            .with_dead_letters(
                DeadLetterQueueOptions::create().with_store("persistent").with_persistence_id(id))
            .with_journal_dir(dir.str()));
    system->actor_selection("/user/a").tell("one"s);
    dispatcher->run_until_idle();
    system->dead_letter_queue().flush();
    system->terminate();
    system->await_termination();
  }
  EXPECT_EQ(dlq("stats " + dir.str()).code, 1);  // a scan cannot name it
  ToolRun stats = dlq("stats " + dir.str() + " --persistence-id " + id + " --json");
  ASSERT_EQ(stats.code, 0) << stats.err;
  EXPECT_EQ(nlohmann::json::parse(stats.out)["letters"], 1);
}

// The format wasm/js/node_journal.js writes (one {"s","p"} line per record);
// a torn last line is damage, reported with the prefix kept.
TEST(MailroomDlq, ReadsANodeJournalFolder) {
  TempDir dir;
  const std::string record =
      R"({"k":"captured","id":1,"ts":1000,"r":"/user/a","s":null,"n":0,"p":{"t":"json","v":{"order":1}}})";
  {
    std::ofstream file(dir.path / "mailroom-dead-letters-web.jsonl", std::ios::binary);
    file << nlohmann::json({{"s", 1}, {"p", record}}).dump() << "\n{\"s\":2,\"p\":";
  }
  ToolRun list = dlq("list " + dir.str() + " --json");
  EXPECT_EQ(list.code, 3) << list.err;
  const auto json = nlohmann::json::parse(list.out);
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["payload"]["message"]["order"], 1);
  EXPECT_NE(list.err.find("torn tail"), std::string::npos) << list.err;
}

// A record whose payload is nested 100,000 deep (printing it overflowed the
// stack) is reported and skipped; the letter beside it is listed.
TEST(MailroomDlq, ADeeplyNestedRecordIsReportedTheRestListed) {
  TempDir dir;
  const std::string record =
      R"({"k":"captured","id":1,"ts":1000,"r":"/user/a","s":null,"n":0,"p":{"t":"json","v":{"order":1}}})";
  {
    std::ofstream file(dir.path / "mailroom-dead-letters-web.jsonl", std::ios::binary);
    const std::string deep =
        R"({"k":"captured","id":2,"ts":1000,"r":"/user/a","s":null,"n":0,"p":{"t":"json","v":)" +
        std::string(100'000, '[') + std::string(100'000, ']') + "}}";
    file << nlohmann::json({{"s", 1}, {"p", record}}).dump() << "\n"
         << nlohmann::json({{"s", 2}, {"p", deep}}).dump() << "\n";
  }
  ToolRun list = dlq("list " + dir.str() + " --json");
  EXPECT_EQ(list.code, 3) << list.err;  // damage reported
  const auto json = nlohmann::json::parse(list.out);
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0]["payload"]["message"]["order"], 1);
  EXPECT_NE(list.err.find("nested deeper than"), std::string::npos) << list.err;
}

}  // namespace
}  // namespace mailroom