// deadLetters.list paged with a cursor: walking every page of a query yields
// every matching letter exactly once, in the list's own order (capture order,
// newest first), whatever the letters' times: in time order with ties in one
// millisecond, after the clock went back, after a replayed letter came back
// in the same millisecond as newer ids, and over random mixes of those. While
// letters are captured and removed between pages, a continued walk holds
// every letter that was there when it started and was not removed before the
// walk reached it, once, in order, and never a letter captured after it
// started (those are on a fresh first page). A cursor the list did not give
// out (malformed, the old "time:id" form, another queue's) is refused with
// bad-cursor.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <set>
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
                               .with_max_replays(1'000)
                               .with_retention_ms(0));
    system = ActorSystem::create("shop", std::move(options));
    session = std::make_unique<DevtoolsSession>(
        *system, DevtoolsSessionOptions{},
        [this](std::string f) { frames.push_back(json::parse(f)); });
    frames.clear();
    session->receive(
        json{{"type", "hello"}, {"protocol", "mailroom-devtools"}, {"version", 1}}.dump());
    for (const char* name : {"a", "b", "c"}) {
      // Drops every letter, a replayed one too: a replay comes back as its entry.
      sinks.push_back(system->spawn(
          lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), name));
    }
  }
  ~PagingHarness() {
    session.reset();
    system->terminate();
    system->await_termination();
  }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }
  // count letters "x<n>" to the sinks in turn, `per_ms` of them in each millisecond.
  void capture(int count, int per_ms) {
    for (int i = 0; i < count; ++i) {
      if (i % per_ms == 0) ++now_ms;
      sinks[next % sinks.size()].tell(std::string("x") + std::to_string(next));
      ++next;
      dispatcher->run_until_idle();
    }
  }
  // Replays entry `id` to its sink, which drops it again: it comes back as the
  // newest entry (same id) at the current millisecond.
  void replay_back(std::uint64_t id) {
    ASSERT_EQ(queue().replay(id).outcome, ReplayOutcome::kReplayed);
    dispatcher->run_until_idle();
    ASSERT_TRUE(queue().get(id).has_value());
  }
  json request(const json& params) {
    frames.clear();
    session->receive(
        json{{"type", "request"}, {"id", 1}, {"method", "deadLetters.list"}, {"params", params}}
            .dump());
    EXPECT_EQ(frames.size(), 1u);
    return frames.at(0);
  }
  json list(const json& params) {
    json frame = request(params);
    EXPECT_EQ(frame["type"], "response") << frame.dump();
    return frame["result"];
  }

  std::int64_t now_ms = 1'000;
  int next = 0;
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
  std::unique_ptr<DevtoolsSession> session;
  std::vector<ActorRef> sinks;
  std::vector<json> frames;
};

std::vector<std::string> ids_of(const std::vector<json>& entries) {
  std::vector<std::string> ids;
  for (const json& e : entries) ids.push_back(e["id"].get<std::string>());
  return ids;
}

// The unpaged list of a filter: one page as large as the queue.
std::vector<json> everything(PagingHarness& h, json filters) {
  filters["limit"] = 1000;
  json page = h.list(filters);
  EXPECT_TRUE(page["nextCursor"].is_null());  // one page held them all
  return page["entries"].get<std::vector<json>>();
}

// Walks every page of `filters` `limit` at a time (calling between(page, seen
// so far) after each page but the last); every page but the last is full, only the last has
// no nextCursor. Returns the entries seen, in order.
template <class Between>
std::vector<json> walk(PagingHarness& h, json filters, std::size_t limit, Between between) {
  std::vector<json> seen;
  json params = filters;
  params["limit"] = limit;
  for (int pages = 0; pages < 10'000; ++pages) {
    json page = h.list(params);
    for (const json& e : page["entries"]) seen.push_back(e);
    if (page["nextCursor"].is_null()) break;
    EXPECT_EQ(page["entries"].size(), limit) << "page " << pages << " of " << filters.dump();
    EXPECT_TRUE(page["nextCursor"].is_string());
    between(pages, seen);
    params["cursor"] = page["nextCursor"];
  }
  return seen;
}
std::vector<json> walk(PagingHarness& h, const json& filters, std::size_t limit) {
  return walk(h, filters, limit, [](int, const std::vector<json>&) {});
}

const std::vector<json> kFilters = {
    json::object(),
    json{{"recipient", "/user/b"}},
    json{{"sinceMs", 1'010}, {"untilMs", 1'040}},
    json{{"recipient", "/user"}, {"text", "X1"}},
    json{{"recipient", "/user/c"}, {"text", "3"}, {"untilMs", 1'050}},
    json{{"text", "x77"}},  // 11 letters far apart: a page's read spans several chunks
};

// Every page walk of every filter equals the unpaged list, entry for entry.
void expect_walks_equal_the_list(PagingHarness& h, const std::vector<std::size_t>& limits) {
  std::size_t nonempty = 0;
  for (const json& filters : kFilters) {
    const std::vector<json> all = everything(h, filters);
    if (all.size() > 1) ++nonempty;
    for (std::size_t limit : limits) {
      EXPECT_EQ(ids_of(walk(h, filters, limit)), ids_of(all))
          << filters.dump() << " limit " << limit;
    }
  }
  EXPECT_GE(nonempty, 4u);  // not a vacuous walk
}

TEST(DevtoolsPaging, WalksInTimeOrderVisitEveryLetterOnceWithTiesInOneMillisecond) {
  PagingHarness h;
  h.capture(600, 7);  // 7 letters per millisecond: cursors land inside ties
  h.capture(300, 1);
  expect_walks_equal_the_list(h, {1, 3, 7, 50});
}

// Before the cursor named a position in the list, it named (time, id), and a
// page held the entries "older" by those: after the clock went back, the
// newer letters with older times came again on later pages and older letters
// with newer times were skipped.
TEST(DevtoolsPaging, WalksVisitEveryLetterOnceAfterTheClockWentBack) {
  PagingHarness h;
  h.capture(300, 5);
  h.now_ms -= 40;  // newer letters with older times: the queue is out of (time, id) order
  h.capture(300, 3);
  expect_walks_equal_the_list(h, {1, 4, 60});
}

// A replayed letter that comes back is the newest entry with its old (low) id
// in the same millisecond as higher ids: by (time, id) the page after it
// started below its id and skipped every higher id of that millisecond.
TEST(DevtoolsPaging, WalksVisitEveryLetterOnceAfterAReplayCameBackInTheSameMillisecond) {
  PagingHarness h;
  h.capture(250, 5);
  h.capture(50, 50);  // the last 50 letters share one millisecond
  for (std::uint64_t id : {3u, 120u, 260u, 299u}) h.replay_back(id);
  const std::vector<json> all = everything(h, json::object());
  ASSERT_EQ(all.front()["id"], "299");
  ASSERT_EQ(all.front()["timestampMs"], all.at(5)["timestampMs"]);
  expect_walks_equal_the_list(h, {1, 2, 5, 49});
}

// Property: random captures, clock jumps both ways and replays coming back,
// every filter walked at several sizes equals the list.
TEST(DevtoolsPaging, WalksVisitEveryLetterOnceOverRandomOrders) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    PagingHarness h;
    std::mt19937 rng(seed);
    for (int step = 0; step < 40; ++step) {
      const int what = static_cast<int>(rng() % 10);
      if (what < 6) {
        h.capture(1 + static_cast<int>(rng() % 20), 1 + static_cast<int>(rng() % 6));
      } else if (what < 8) {
        h.now_ms += static_cast<std::int64_t>(rng() % 60) - 45;  // mostly back
      } else if (h.next > 0) {
        const auto id = 1 + rng() % static_cast<std::uint64_t>(h.next);
        if (h.queue().get(id)) h.replay_back(id);
      }
    }
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_walks_equal_the_list(h, {1, 6, 33});
  }
}

// Between pages, new letters are captured (some in the same millisecond, some
// after the clock went back) and letters are removed, some already seen, some
// not yet: the walk holds exactly the letters there at its start that were
// not removed before it reached them, in the start's order, once each.
TEST(DevtoolsPaging, ConcurrentCapturesAppearOnlyOnAFreshFirstPageAndRemovalsVanish) {
  for (const json& filters : {json::object(), json{{"recipient", "/user/a"}}, json{{"text", "x1"}},
                              json{{"sinceMs", 1'005}}}) {
    PagingHarness h;
    h.capture(400, 4);
    const std::vector<json> start = everything(h, filters);
    std::set<std::string> removed_unseen;  // removed before the walk reached them
    std::mt19937 rng(7);
    std::vector<json> seen = walk(h, filters, 9, [&](int page, const std::vector<json>& so_far) {
      std::set<std::string> passed;
      for (const json& e : so_far) passed.insert(e["id"].get<std::string>());
      h.now_ms -= (page % 3 == 0) ? 30 : -1;
      h.capture(3, 2);
      for (int k = 0; k < 3; ++k) {
        const std::uint64_t id = 1 + rng() % 400;
        if (!h.queue().get(id)) continue;
        ASSERT_EQ(h.queue().remove({id}).at(0).outcome, RemoveOutcome::kRemoved);
        if (!passed.count(std::to_string(id))) removed_unseen.insert(std::to_string(id));
      }
    });
    ASSERT_FALSE(removed_unseen.empty());
    std::vector<std::string> want;
    for (const json& e : start) {
      const std::string id = e["id"].get<std::string>();
      if (!removed_unseen.count(id)) want.push_back(id);
    }
    EXPECT_EQ(ids_of(seen), want) << filters.dump();
    for (const json& e : seen) EXPECT_LE(std::stoi(e["id"].get<std::string>()), 400);
    // The letters captured meanwhile are on a fresh first page.
    const std::vector<json> fresh = everything(h, json::object());
    EXPECT_GT(std::stoi(fresh.front()["id"].get<std::string>()), 400);
  }
}

TEST(DevtoolsPaging, ACursorTheListDidNotGiveOutIsRefusedWithBadCursor) {
  PagingHarness h;
  h.capture(30, 3);
  json first = h.list(json{{"limit", 5}});
  ASSERT_TRUE(first["nextCursor"].is_string());
  const std::string good = first["nextCursor"].get<std::string>();
  PagingHarness other;  // another queue: its positions mean nothing here
  other.capture(30, 3);
  const std::string foreign = other.list(json{{"limit", 5}})["nextCursor"].get<std::string>();
  ASSERT_NE(foreign, good);
  const std::vector<std::string> bad = {"",
                                        "garbage",
                                        "1003:25",  // the old (time:id) form
                                        foreign,
                                        good + "x",
                                        good.substr(0, good.size() - 1) + "-1",
                                        good + "9999999999999999999999"};
  for (const std::string& cursor : bad) {
    json frame = h.request(json{{"cursor", cursor}, {"limit", 5}});
    EXPECT_EQ(frame["type"], "error") << cursor;
    EXPECT_EQ(frame["code"], "bad-cursor") << cursor << " " << frame.dump();
  }
  json frame = h.request(json{{"cursor", 42}});
  EXPECT_EQ(frame["code"], "bad-cursor") << frame.dump();
  // The good one still continues.
  EXPECT_EQ(h.list(json{{"cursor", good}, {"limit", 5}})["entries"].at(0)["id"], "25");
}

}  // namespace
}  // namespace mailroom
