// The DevTools protocol module (docs/devtools-protocol.md): hello/welcome,
// refused frames, the three streams' snapshot-then-delta events with
// per-stream sequence numbers, and the requests.
#include <gtest/gtest.h>

#include <algorithm>
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

struct Harness {
  explicit Harness(bool allow_writes = false, std::size_t max_entries = 1000) {
    dispatcher = std::make_shared<ManualDispatcher>();
    auto options = ActorSystemOptions::create();
    options.with_dispatcher(dispatcher)
        .with_log_sink([](const LogEvent&) {})
        .with_dead_letters(
            DeadLetterQueueOptions::create().with_store("memory").with_max_entries(max_entries));
    system = ActorSystem::create("shop", std::move(options));
    DevtoolsSessionOptions o;
    o.allow_writes = allow_writes;
    session = std::make_unique<DevtoolsSession>(
        *system, o, [this](std::string f) { frames.push_back(json::parse(f)); },
        [this] { return clock; });
  }
  ~Harness() {
    session.reset();
    system->terminate();
    system->await_termination();
  }
  // Sends a frame; returns what came back.
  std::vector<json> send(const json& frame) {
    frames.clear();
    session->receive(frame.dump());
    return frames;
  }
  std::vector<json> poll(std::int64_t advance_ms) {
    frames.clear();
    clock += advance_ms;
    session->poll();
    return frames;
  }
  void greet() {
    auto out = send(json{{"type", "hello"}, {"protocol", "mailroom-devtools"}, {"version", 1}});
    ASSERT_EQ(out.size(), 1u);
    ASSERT_EQ(out[0]["type"], "welcome");
  }
  ActorRef sink_actor(const std::string& name) {
    return system->spawn(lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }),
                         name);
  }

  std::int64_t clock = 0;
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
  std::unique_ptr<DevtoolsSession> session;
  std::vector<json> frames;
};

// hello → welcome naming the protocol, version, system, streams, methods and whether writes are
// allowed.
TEST(DevtoolsSession, HelloIsAnsweredWithWelcome) {
  Harness h;
  auto out = h.send(json{{"type", "hello"},
                         {"protocol", "mailroom-devtools"},
                         {"version", 1},
                         {"client", "test"},
                         {"someFutureField", true}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["type"], "welcome");
  EXPECT_EQ(out[0]["protocol"], "mailroom-devtools");
  EXPECT_EQ(out[0]["version"], 1);
  EXPECT_EQ(out[0]["system"], "shop");
  EXPECT_EQ(out[0]["writes"], false);
  EXPECT_EQ(out[0]["streams"], json({"mailboxes", "deadLetters", "metrics"}));
  EXPECT_EQ(out[0]["methods"],
            json({"deadLetters.list", "deadLetters.replay", "deadLetters.remove",
                  "deadLetters.release", "deadLetters.streams", "deadLetters.preview", "inspect"}));
  EXPECT_EQ(out[0]["deadLetterStream"], nullptr);  // a memory store writes no stream
  EXPECT_TRUE(h.session->greeted());
  EXPECT_FALSE(h.session->should_close());
}

// Anything before hello, or a version this server does not speak, is refused and closes the
// session.
TEST(DevtoolsSession, NoHelloOrWrongVersionIsRefusedAndCloses) {
  {
    Harness h;
    auto out = h.send(json{{"type", "subscribe"}, {"stream", "mailboxes"}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]["type"], "error");
    EXPECT_EQ(out[0]["code"], "hello-required");
    EXPECT_TRUE(h.session->should_close());
  }
  {
    Harness h;
    auto out = h.send(json{{"type", "hello"}, {"version", 2}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]["code"], "unsupported-version");
    EXPECT_TRUE(h.session->should_close());
    EXPECT_FALSE(h.session->greeted());
  }
}

// Unknown frame types, unknown streams and methods, and non-JSON text are errors by name; the
// session stays open.
TEST(DevtoolsSession, UnknownFramesStreamsAndMethodsAreRejectedByName) {
  Harness h;
  h.greet();
  auto out = h.send(json{{"type", "teleport"}, {"id", 7}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["code"], "unknown-frame");
  EXPECT_EQ(out[0]["id"], 7);
  EXPECT_EQ(h.send(json{{"type", "subscribe"}, {"stream", "weather"}})[0]["code"],
            "unknown-stream");
  EXPECT_EQ(h.send(json{{"type", "request"}, {"id", "r1"}, {"method", "shutdown"}})[0]["code"],
            "unknown-method");
  h.frames.clear();
  h.session->receive("not json");
  ASSERT_EQ(h.frames.size(), 1u);
  EXPECT_EQ(h.frames[0]["code"], "bad-frame");
  EXPECT_EQ(
      h.send(json{{"type", "subscribe"}, {"stream", "mailboxes"}, {"intervalMs", 1}})[0]["code"],
      "bad-params");
  EXPECT_FALSE(h.session->should_close());
}

// mailboxes: a snapshot of every row (seq 1), then deltas with only the changed rows and removed
// paths.
TEST(DevtoolsSession, MailboxesSnapshotThenDeltasOfChangedRows) {
  Harness h;
  ActorRef a = h.system->spawn(lambda_actor([](LambdaActor&, const Message&) {}), "a");
  h.system->spawn(lambda_actor([](LambdaActor&, const Message&) {}), "b");
  h.dispatcher->run_until_idle();
  h.greet();
  auto out = h.send(json{{"type", "subscribe"}, {"stream", "mailboxes"}, {"intervalMs", 100}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["type"], "event");
  EXPECT_EQ(out[0]["stream"], "mailboxes");
  EXPECT_EQ(out[0]["kind"], "snapshot");
  EXPECT_EQ(out[0]["seq"], 1);
  std::vector<std::string> paths;
  for (const json& row : out[0]["rows"]) paths.push_back(row["path"]);
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/user/a"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/user/b"), paths.end());

  EXPECT_TRUE(h.poll(50).empty());  // not due yet
  a.tell(std::string("queued"));    // depth 1 on /user/a, not yet processed
  out = h.poll(50);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["kind"], "delta");
  EXPECT_EQ(out[0]["seq"], 2);
  ASSERT_EQ(out[0]["changed"].size(), 1u);
  EXPECT_EQ(out[0]["changed"][0]["path"], "/user/a");
  EXPECT_EQ(out[0]["changed"][0]["userDepth"], 1);
  EXPECT_TRUE(out[0]["removed"].empty());

  h.system->stop(a);
  h.dispatcher->run_until_idle();
  out = h.poll(100);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["seq"], 3);
  EXPECT_EQ(out[0]["removed"], json({"/user/a"}));
}

// deadLetters: a first page with revision, settings and stats; then captured / removed deltas
// carrying the new revision.
TEST(DevtoolsSession, DeadLettersFirstPageThenPushedDeltas) {
  Harness h(false, 2);
  ActorRef drop = h.sink_actor("drop");
  drop.tell(std::string("one"));
  h.dispatcher->run_until_idle();
  h.greet();
  auto out = h.send(json{{"type", "subscribe"}, {"stream", "deadLetters"}});
  ASSERT_EQ(out.size(), 1u);
  const json& snap = out[0];
  EXPECT_EQ(snap["kind"], "snapshot");
  EXPECT_EQ(snap["seq"], 1);
  EXPECT_EQ(snap["settings"]["store"], "memory");
  EXPECT_EQ(snap["settings"]["maxEntries"], 2);
  EXPECT_EQ(snap["complete"], true);
  ASSERT_EQ(snap["entries"].size(), 1u);
  EXPECT_EQ(snap["entries"][0]["id"], "1");
  EXPECT_EQ(snap["entries"][0]["recipientPath"], "/user/drop");
  EXPECT_EQ(snap["entries"][0]["payload"]["kind"], "captured");
  EXPECT_EQ(snap["entries"][0]["payload"]["tag"], "string");
  EXPECT_EQ(snap["entries"][0]["payload"]["value"], "one");
  const std::uint64_t revision = snap["revision"];

  EXPECT_TRUE(h.poll(0).empty());  // nothing changed: nothing sent
  drop.tell(std::string("two"));
  drop.tell(std::string("three"));
  h.dispatcher->run_until_idle();
  out = h.poll(0);  // pushed as soon as the revision moved, not on the interval
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["kind"], "delta");
  EXPECT_EQ(out[0]["seq"], 2);
  EXPECT_GT(out[0]["revision"].get<std::uint64_t>(), revision);
  ASSERT_EQ(out[0]["captured"].size(), 2u);
  EXPECT_EQ(out[0]["captured"][0]["payload"]["value"], "two");
  EXPECT_EQ(out[0]["removed"], json::parse(R"([{"id":"1","reason":"evicted"}])"));
  EXPECT_EQ(out[0]["stats"]["evicted"], 1);
  EXPECT_EQ(out[0]["stats"]["size"], 2);
}

// A transport that dropped a frame resyncs: the next event of each stream is a snapshot again.
TEST(DevtoolsSession, ResyncSendsFreshSnapshots) {
  Harness h;
  h.greet();
  h.send(json{{"type", "subscribe"}, {"stream", "metrics"}});
  h.session->resync();
  auto out = h.poll(0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["kind"], "snapshot");
  EXPECT_EQ(out[0]["seq"], 2);
  EXPECT_NE(out[0]["text"].get<std::string>().find("actor_"), std::string::npos);
}

// deadLetters.list: subtree, payload text, limit and a cursor that continues where the page ended.
TEST(DevtoolsSession, ListFiltersAndPagesWithACursor) {
  Harness h;
  ActorRef orders = h.sink_actor("orders");
  ActorRef other = h.sink_actor("other");
  for (int i = 0; i < 5; ++i) orders.tell(std::string("order-") + std::to_string(i));
  other.tell(std::string("order-x"));
  other.tell(std::string("misc"));
  h.dispatcher->run_until_idle();
  h.greet();
  auto page = [&](json params) {
    auto out = h.send(
        json{{"type", "request"}, {"id", "p"}, {"method", "deadLetters.list"}, {"params", params}});
    EXPECT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]["type"], "response");
    return out[0]["result"];
  };
  auto values = [](const json& result) {
    std::vector<std::string> v;
    for (const json& e : result["entries"]) v.push_back(e["payload"]["value"]);
    return v;
  };
  json first = page({{"recipient", "/user/orders"}, {"limit", 2}});
  EXPECT_EQ(values(first), (std::vector<std::string>{"order-4", "order-3"}));
  ASSERT_TRUE(first["nextCursor"].is_string());
  json second =
      page({{"recipient", "/user/orders"}, {"limit", 2}, {"cursor", first["nextCursor"]}});
  EXPECT_EQ(values(second), (std::vector<std::string>{"order-2", "order-1"}));
  json last = page({{"recipient", "/user/orders"}, {"limit", 2}, {"cursor", second["nextCursor"]}});
  EXPECT_EQ(values(last), (std::vector<std::string>{"order-0"}));
  EXPECT_TRUE(last["nextCursor"].is_null());
  EXPECT_EQ(values(page({{"text", "ORDER-X"}})), (std::vector<std::string>{"order-x"}));
  auto bad = h.send(json{
      {"type", "request"}, {"id", 3}, {"method", "deadLetters.list"}, {"params", {{"limit", 0}}}});
  EXPECT_EQ(bad[0]["code"], "bad-params");
  EXPECT_EQ(bad[0]["id"], 3);
}

// deadLetters.replay answers unavailable on a read-only session and replays when writes are
// allowed.
TEST(DevtoolsSession, ReplayIsRefusedReadOnlyAndWorksWithWrites) {
  for (bool writes : {false, true}) {
    Harness h(writes);
    ActorRef drop = h.sink_actor("drop");
    drop.tell(std::string("again"));
    h.dispatcher->run_until_idle();
    h.greet();
    auto out = h.send(json{{"type", "request"},
                           {"id", "r"},
                           {"method", "deadLetters.replay"},
                           {"params", {{"id", "1"}, {"path", "/user/nobody"}}}});
    ASSERT_EQ(out.size(), 1u);
    if (!writes) {
      EXPECT_EQ(out[0]["type"], "error");
      EXPECT_EQ(out[0]["code"], "unavailable");
      EXPECT_EQ(h.system->dead_letter_queue().list().size(), 1u);
    } else {
      EXPECT_EQ(out[0]["type"], "response");
      EXPECT_EQ(out[0]["result"]["outcome"], "unresolved-recipient");
    }
  }
}

// A redirect path malformed as written (the panel's rule, ActorPath::malformation) is named in the
// replay and preview answers and never resolved leniently: " mailroom://shop/user/other" with a
// space in front would otherwise be read as the scheme " mailroom" and delivered to /user/other.
TEST(DevtoolsSession, MalformedRedirectIsNamedAndNotDelivered) {
  Harness h(true);
  ActorRef drop = h.sink_actor("drop");
  h.sink_actor("other");
  drop.tell(std::string("a"));
  h.dispatcher->run_until_idle();
  h.greet();
  for (const std::string path : {" mailroom://shop/user/other", "/user/other ", "/user/$other"}) {
    SCOPED_TRACE(path);
    auto out = h.send(json{{"type", "request"},
                           {"id", "p"},
                           {"method", "deadLetters.preview"},
                           {"params", {{"action", "replay"}, {"ids", {"1"}}, {"path", path}}}});
    const json preview = out[0]["result"]["results"][0];  // a copy: out is reused below
    EXPECT_EQ(preview["outcome"], "unresolved-recipient") << out[0].dump();
    EXPECT_TRUE(preview.contains("malformed")) << out[0].dump();
    EXPECT_TRUE(out[0]["result"]["mailboxes"].empty());
    out = h.send(json{{"type", "request"},
                      {"id", "r"},
                      {"method", "deadLetters.replay"},
                      {"params", {{"id", "1"}, {"path", path}}}});
    EXPECT_EQ(out[0]["result"]["outcome"], "unresolved-recipient") << out[0].dump();
    EXPECT_EQ(out[0]["result"]["malformed"], preview["malformed"]);
    EXPECT_EQ(h.system->dead_letter_queue().list().size(), 1u);  // the entry stays
  }
  auto out = h.send(json{{"type", "request"},
                         {"id", "s"},
                         {"method", "deadLetters.replay"},
                         {"params", {{"id", "1"}, {"path", " /user/other"}}}});
  EXPECT_EQ(out[0]["result"]["malformed"], "spaces before or after it");
  // A well-formed redirect has no such field and is delivered.
  out = h.send(json{{"type", "request"},
                    {"id", "t"},
                    {"method", "deadLetters.replay"},
                    {"params", {{"id", "1"}, {"path", "mailroom://shop/user/other"}}}});
  EXPECT_EQ(out[0]["result"],
            json::parse(R"({"outcome":"replayed","recipientPath":"/user/other"})"));
}

// deadLetters.remove (purge) is refused read-only; with writes it answers one outcome per id
// and the "purged" delta goes out before the answer.
TEST(DevtoolsSession, RemoveIsRefusedReadOnlyAndPurgesWithWrites) {
  for (bool writes : {false, true}) {
    Harness h(writes);
    ActorRef drop = h.sink_actor("drop");
    drop.tell(std::string("a"));
    drop.tell(std::string("b"));
    h.dispatcher->run_until_idle();
    h.greet();
    h.send(json{{"type", "subscribe"}, {"stream", "deadLetters"}});
    auto out = h.send(json{{"type", "request"},
                           {"id", "p"},
                           {"method", "deadLetters.remove"},
                           {"params", {{"ids", {"2", "9"}}}}});
    if (!writes) {
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0]["code"], "unavailable");
      EXPECT_EQ(h.system->dead_letter_queue().list().size(), 2u);
      continue;
    }
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0]["kind"], "delta");
    EXPECT_EQ(out[0]["removed"], json::parse(R"([{"id":"2","reason":"purged"}])"));
    EXPECT_EQ(out[1]["type"], "response");
    EXPECT_EQ(
        out[1]["result"]["results"],
        json::parse(R"([{"id":"2","outcome":"removed"},{"id":"9","outcome":"unknown-entry"}])"));
    EXPECT_EQ(h.system->dead_letter_queue().list().size(), 1u);
    auto bad = h.send(json{{"type", "request"},
                           {"id", "q"},
                           {"method", "deadLetters.remove"},
                           {"params", {{"ids", "2"}}}});
    EXPECT_EQ(bad[0]["code"], "bad-params");
    bad = h.send(json{{"type", "request"},
                      {"id", "q"},
                      {"method", "deadLetters.remove"},
                      {"params", {{"ids", {"x"}}}}});
    EXPECT_EQ(bad[0]["code"], "bad-params");
  }
}

// deadLetters.preview: the queue's dry run, allowed read-only; per id the outcome the real
// request would answer now, the rows of the actors a replay would reach, and nothing changed.
TEST(DevtoolsSession, PreviewAnswersTheDryRunAndChangesNothing) {
  Harness h(false);
  ActorRef drop = h.sink_actor("drop");
  h.sink_actor("other");
  drop.tell(std::string("a"));
  drop.tell(std::string("b"));
  h.dispatcher->run_until_idle();
  h.greet();
  auto out = h.send(
      json{{"type", "request"},
           {"id", "v"},
           {"method", "deadLetters.preview"},
           {"params", {{"action", "replay"}, {"ids", {"1", "9"}}, {"path", "/user/other"}}}});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0]["type"], "response");
  const json& r = out[0]["result"];
  EXPECT_EQ(r["results"],
            json::parse(R"([{"id":"1","outcome":"replayed","recipientPath":"/user/other"},
                                           {"id":"9","outcome":"unknown-entry","recipientPath":""}])"));
  ASSERT_EQ(r["mailboxes"].size(), 1u);
  EXPECT_EQ(r["mailboxes"][0]["path"], "/user/other");
  EXPECT_TRUE(r["mailboxes"][0].contains("userDepth"));
  out = h.send(json{{"type", "request"},
                    {"id", "w"},
                    {"method", "deadLetters.preview"},
                    {"params", {{"action", "replay"}, {"ids", {"2"}}, {"path", "/user/nobody"}}}});
  EXPECT_EQ(out[0]["result"]["results"][0]["outcome"], "unresolved-recipient");
  EXPECT_TRUE(out[0]["result"]["mailboxes"].empty());
  out = h.send(json{{"type", "request"},
                    {"id", "x"},
                    {"method", "deadLetters.preview"},
                    {"params", {{"action", "remove"}, {"ids", {"2", "2", "7"}}}}});
  EXPECT_EQ(out[0]["result"]["results"],
            json::parse(R"([{"id":"2","outcome":"removed"},{"id":"2","outcome":"unknown-entry"},
                            {"id":"7","outcome":"unknown-entry"}])"));
  EXPECT_EQ(h.system->dead_letter_queue().list().size(), 2u);
  EXPECT_EQ(h.system->dead_letter_queue().stats().replayed, 0u);
  for (const json& bad : {json{{"ids", {"1"}}}, json{{"action", "purge"}, {"ids", {"1"}}},
                          json{{"action", "remove"}, {"ids", {"1"}}, {"path", "/user/a"}},
                          json{{"action", "replay"}, {"ids", "1"}}}) {
    out = h.send(
        json{{"type", "request"}, {"id", "y"}, {"method", "deadLetters.preview"}, {"params", bad}});
    EXPECT_EQ(out[0]["code"], "bad-params") << bad.dump();
  }
}

// deadLetters.release answers by name (here: nothing to release).
TEST(DevtoolsSession, ReleaseAnswersItsOutcome) {
  Harness h(true);
  ActorRef drop = h.sink_actor("drop");
  drop.tell(std::string("a"));
  h.dispatcher->run_until_idle();
  h.greet();
  auto out = h.send(json{{"type", "request"},
                         {"id", "r"},
                         {"method", "deadLetters.release"},
                         {"params", {{"id", "1"}}}});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0]["result"]["outcome"], "not-quarantined");
}

// Entry ids match only as the queue writes them (issue 27): "01" is not entry 1.
TEST(DevtoolsSession, EntryIdsMatchOnlyAsWritten) {
  Harness h(true);
  ActorRef drop = h.sink_actor("drop");
  drop.tell(std::string("a"));
  h.dispatcher->run_until_idle();
  h.greet();
  for (const char* id : {"01", "1.0", " 1", "+1"}) {
    auto out = h.send(json{{"type", "request"},
                           {"id", "r"},
                           {"method", "deadLetters.release"},
                           {"params", {{"id", id}}}});
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0]["code"], "bad-params") << id;
  }
  auto out = h.send(json{{"type", "request"},
                         {"id", "r"},
                         {"method", "deadLetters.release"},
                         {"params", {{"id", "1"}}}});
  EXPECT_EQ(out[0]["result"]["outcome"], "not-quarantined");
}

// inspect answers the rows of one subtree.
TEST(DevtoolsSession, InspectAnswersRowsOfASubtree) {
  Harness h;
  h.sink_actor("a");
  h.sink_actor("b");
  h.dispatcher->run_until_idle();
  h.greet();
  auto out = h.send(json{
      {"type", "request"}, {"id", 1}, {"method", "inspect"}, {"params", {{"path", "/user/a"}}}});
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0]["result"]["rows"].size(), 1u);
  EXPECT_EQ(out[0]["result"]["rows"][0]["path"], "/user/a");
  EXPECT_EQ(out[0]["result"]["system"], "shop");
}

// inspect's path is a subtree in ActorPath's sense: "/" holds every actor,
// and "/user/a" never holds a sibling whose name only starts with "a".
TEST(DevtoolsSession, InspectOfTheRootAnswersEveryRowAndNoPrefixSibling) {
  Harness h;
  h.sink_actor("a");
  h.sink_actor("ab");
  h.dispatcher->run_until_idle();
  h.greet();
  auto all = h.send(
      json{{"type", "request"}, {"id", 1}, {"method", "inspect"}, {"params", {{"path", "/"}}}});
  ASSERT_EQ(all.size(), 1u);
  std::vector<std::string> paths;
  for (const auto& row : all[0]["result"]["rows"]) paths.push_back(row["path"]);
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/user/a"), paths.end());
  EXPECT_NE(std::find(paths.begin(), paths.end(), "/user/ab"), paths.end());
  auto one = h.send(json{
      {"type", "request"}, {"id", 2}, {"method", "inspect"}, {"params", {{"path", "/user/a"}}}});
  ASSERT_EQ(one[0]["result"]["rows"].size(), 1u);
  EXPECT_EQ(one[0]["result"]["rows"][0]["path"], "/user/a");
}

}  // namespace
}  // namespace mailroom
