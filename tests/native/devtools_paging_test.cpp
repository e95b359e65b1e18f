// deadLetters.list paged with a cursor: every page holds exactly the entries
// the protocol defines (the first `limit` of the queue's newest-first list
// that are older than the cursor by time then id and pass the filters), with
// nextCursor naming the last of them when more follow. Pinned over full walks
// with a recipient subtree, a time window and payload text, through many
// letters captured in the same millisecond, both while the queue is in
// (time, id) order (the read starts by binary search) and after the clock
// went back (the read skips newer entries one by one).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_session.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::lambda_actor;
using testing::LambdaActor;

struct PagingHarness {
  PagingHarness() {
    dispatcher = std::make_shared<ManualDispatcher>();
    auto options = ActorSystemOptions::create();
    options.with_dispatcher(dispatcher)
        .with_log_sink([](const LogEvent&) {})
        .with_clock([this] { return now_ms; })
        .with_dead_letters(DeadLetterQueueOptions::create()
                               .with_store("memory")
                               .with_max_entries(10'000)
                               .with_retention_ms(0));
    system = ActorSystem::create("shop", std::move(options));
    session = std::make_unique<DevtoolsSession>(
        *system, DevtoolsSessionOptions{},
        [this](std::string f) { frames.push_back(json::parse(f)); });
    frames.clear();
    session->receive(
        json{{"type", "hello"}, {"protocol", "mailroom-devtools"}, {"version", 1}}.dump());
    for (const char* name : {"a", "b", "c"}) {
      sinks.push_back(system->spawn(
          lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), name));
    }
  }
  ~PagingHarness() {
    session.reset();
    system->terminate();
    system->await_termination();
  }
  // count letters "x<n>" to the sinks in turn, `per_ms` of them in each millisecond.
  void capture(int count, int per_ms) {
    for (int i = 0; i < count; ++i) {
      if (i % per_ms == 0) ++now_ms;
      sinks[next % sinks.size()].tell(std::string("x") + std::to_string(next));
      ++next;
      dispatcher->run_until_idle();
    }
  }
  json list(const json& params) {
    frames.clear();
    session->receive(
        json{{"type", "request"}, {"id", 1}, {"method", "deadLetters.list"}, {"params", params}}
            .dump());
    EXPECT_EQ(frames.size(), 1u);
    EXPECT_EQ(frames.at(0)["type"], "response") << frames.at(0).dump();
    return frames.at(0)["result"];
  }

  std::int64_t now_ms = 1'000;
  int next = 0;
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
  std::unique_ptr<DevtoolsSession> session;
  std::vector<ActorRef> sinks;
  std::vector<json> frames;
};

struct Key {
  std::int64_t timestamp_ms;
  std::uint64_t id;
};
Key key_of(const json& entry) {
  return {entry["timestampMs"].get<std::int64_t>(), std::stoull(entry["id"].get<std::string>())};
}
bool older(const Key& a, const Key& b) {
  return a.timestamp_ms < b.timestamp_ms || (a.timestamp_ms == b.timestamp_ms && a.id < b.id);
}

// The definition, from the unpaged list: what a page after `cursor` holds.
json expected_page(const std::vector<json>& all, const std::optional<Key>& cursor,
                   std::size_t limit) {
  json entries = json::array();
  json next_cursor = nullptr;
  for (const json& e : all) {
    if (cursor && !older(key_of(e), *cursor)) continue;
    if (entries.size() == limit) {
      const Key last = key_of(entries.back());
      next_cursor = std::to_string(last.timestamp_ms) + ":" + std::to_string(last.id);
      break;
    }
    entries.push_back(e);
  }
  return json{{"entries", entries}, {"nextCursor", next_cursor}};
}

// Walks every page of `filters` `limit` at a time, checking each against the
// definition; returns the entries seen.
std::vector<json> walk(PagingHarness& h, json filters, std::size_t limit,
                       const std::vector<json>& all) {
  std::vector<json> seen;
  std::optional<Key> cursor;
  json params = filters;
  params["limit"] = limit;
  for (int pages = 0; pages < 10'000; ++pages) {
    json page = h.list(params);
    const json want = expected_page(all, cursor, limit);
    EXPECT_EQ(page["entries"], want["entries"]) << "page " << pages << " of " << filters.dump();
    EXPECT_EQ(page["nextCursor"], want["nextCursor"]) << "page " << pages;
    for (const json& e : page["entries"]) seen.push_back(e);
    if (!page["nextCursor"].is_string() || page["entries"].empty()) break;
    cursor = key_of(page["entries"].back());
    params["cursor"] = page["nextCursor"];
  }
  return seen;
}

// The unpaged list of a filter: one page as large as the queue.
std::vector<json> everything(PagingHarness& h, json filters) {
  filters["limit"] = 1000;
  json page = h.list(filters);
  EXPECT_TRUE(page["nextCursor"].is_null());  // one page held them all
  return page["entries"].get<std::vector<json>>();
}

const std::vector<json> kFilters = {
    json::object(),
    json{{"recipient", "/user/b"}},
    json{{"sinceMs", 1'010}, {"untilMs", 1'040}},
    json{{"recipient", "/user"}, {"text", "X1"}},
    json{{"recipient", "/user/c"}, {"text", "3"}, {"untilMs", 1'050}},
    json{{"text", "x77"}},  // 11 letters far apart: a page's read spans several chunks
};

TEST(DevtoolsPaging, WalksInTimeOrderVisitEveryLetterOnceWithTiesInOneMillisecond) {
  PagingHarness h;
  h.capture(600, 7);  // 7 letters per millisecond: cursors land inside ties
  h.capture(300, 1);
  for (const json& filters : kFilters) {
    // Reference: the queue's own list, checked to be newest first by (time, id).
    const std::vector<json> all = everything(h, filters);
    ASSERT_GT(all.size(), 10u) << filters.dump();
    for (std::size_t i = 1; i < all.size(); ++i) {
      ASSERT_TRUE(older(key_of(all[i]), key_of(all[i - 1])));
    }
    for (std::size_t limit : {1u, 3u, 7u, 50u}) {
      const std::vector<json> seen = walk(h, filters, limit, all);
      EXPECT_EQ(json(seen), json(all)) << filters.dump() << " limit " << limit;
    }
  }
}

TEST(DevtoolsPaging, PagesFollowTheDefinitionAfterTheClockWentBack) {
  PagingHarness h;
  h.capture(300, 5);
  h.now_ms -= 40;  // newer letters with older times: the queue is out of (time, id) order
  h.capture(300, 3);
  for (const json& filters : kFilters) {
    const std::vector<json> all = everything(h, filters);
    for (std::size_t limit : {1u, 4u, 60u}) walk(h, filters, limit, all);
  }
}

}  // namespace
}  // namespace mailroom
