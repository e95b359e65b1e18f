// Hostile nesting (issue 31): one well-framed journal record nested 100,000
// deep used to overflow the native stack in the JSON parser — the restore at
// ActorSystem::create, mailroom-dlq and a DevTools listing of the stream
// died with it; a protocol frame as deep killed every system of a page. Now
// every reader refuses such text before parsing: the record is reported and
// skipped, the rest restores; the frame gets an error and the session lives.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/devtools_session.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/tagged_json.hpp"

namespace mailroom {
namespace {

std::string nested(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

std::string captured_record(int id, const std::string& payload) {
  return R"({"k":"captured","id":)" + std::to_string(id) +
         R"(,"ts":1000,"r":"/user/gone","s":null,"n":0,"p":)" + payload + "}";
}

TEST(DeepJson, ParseBoundedRefusesBeforeTheParserRecurses) {
  EXPECT_THROW(tagged_json::parse_bounded(nested(100'000)), std::invalid_argument);
  EXPECT_EQ(tagged_json::parse_bounded(nested(tagged_json::kMaxDocumentDepth)).size(), 1u);
  EXPECT_FALSE(tagged_json::decode(R"({"t":"json","v":)" + nested(100'000) + "}").ok);
}

TEST(DeepJson, ADeepRecordIsReportedAndSkippedTheRestRestores) {
  auto journal = std::make_shared<InMemoryJournal>();
  const std::string stream = DeadLetterQueueSettings::default_persistence_id("shop");
  const std::string degraded = R"({"d":{"c":"Order","w":"kept as text"}})";
  journal->append(stream, captured_record(1, degraded));
  journal->append(stream, captured_record(2, R"({"t":"json","v":)" + nested(100'000) + "}"));
  journal->append(stream, captured_record(3, degraded));
  std::vector<std::string> reports;
  DeadLetterQueue::Dependencies deps;
  deps.journal = journal;
  deps.now_ms = [] { return std::int64_t{2000}; };
  deps.report_damage = [&](const std::string& what) { reports.push_back(what); };
  DeadLetterQueue queue(
      DeadLetterQueueOptions::create().with_store("persistent").resolve(nullptr, "shop"), deps);
  std::vector<std::uint64_t> ids;
  for (const DeadLetterEntry& e : queue.list()) ids.push_back(e.id);
  EXPECT_EQ(ids, (std::vector<std::uint64_t>{3, 1}));
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_NE(reports[0].find("record 2 unreadable"), std::string::npos) << reports[0];
  EXPECT_NE(reports[0].find("nested deeper than"), std::string::npos) << reports[0];
}

TEST(DeepJson, ADeepFrameGetsAnErrorAndTheSessionLivesOn) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create(
      "deep",
      ActorSystemOptions::create().with_dispatcher(dispatcher).with_log_sink([](const LogEvent&) {
      }));
  std::vector<nlohmann::json> frames;
  {
    DevtoolsSession session(*system, {},
                            [&](std::string f) { frames.push_back(nlohmann::json::parse(f)); });
    session.receive(R"({"type":"hello","id":)" + nested(100'000) + "}");
    ASSERT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames[0]["type"], "error");
    EXPECT_EQ(frames[0]["code"], "bad-frame");
    frames.clear();
    session.receive(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
    ASSERT_FALSE(frames.empty());
    EXPECT_EQ(frames[0]["type"], "welcome");
  }
  system->terminate();
  system->await_termination();
}

}  // namespace
}  // namespace mailroom
