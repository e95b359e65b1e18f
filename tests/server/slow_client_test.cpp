// A client that never reads: its frames pile up in the socket, then in the
// server's bounded per-socket queue, then are dropped (a gap), and past the
// drop bound it is disconnected, while the server and another client carry
// on. The process never buffers without bound for it. A client that reads
// late sees the gap, a fresh snapshot past it, and can resubscribe.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_server.hpp"
#include "support/runtime_harness.hpp"
#include "ws_client.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::http_get;
using testing::lambda_actor;
using testing::LambdaActor;
using testing::WsClient;

bool greet(WsClient& client, const DevtoolsEndpoint& server) {
  const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
  if (client.connect(server.port(), "/api/ws?token=" + server.token(), origin) != 101) return false;
  client.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  auto welcome = client.receive();
  return welcome && json::parse(*welcome)["type"] == "welcome";
}

// The reader subscribed to mailboxes keeps getting frames and answers while the one that never
// reads (subscribed to a flood of 16 KiB dead letters) is cut off at the bound.
TEST(DevtoolsServerSlowClient, NeverReadingClientIsDroppedOthersContinue) {
  DevtoolsOptions bounds;
  bounds.max_queued_frames = 4;  // small bounds, so the test needs megabytes, not gigabytes
  bounds.max_dropped_frames = 8;
  auto o = ActorSystemOptions::create();
  o.with_log_sink([](const LogEvent&) {})
      .with_dead_letters(
          DeadLetterQueueOptions::create().with_store("memory").with_max_entries(5000))
      .with_devtools(bounds);
  auto system = ActorSystem::create("flood", std::move(o));
  DevtoolsEndpoint& server = *system->devtools();
  ActorRef drop = system->spawn(
      lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), "drop");

  WsClient slow;
  ASSERT_TRUE(greet(slow, server));
  slow.send(R"({"type":"subscribe","stream":"deadLetters","intervalMs":60000})");
  WsClient reader;
  ASSERT_TRUE(greet(reader, server));
  reader.send(R"({"type":"subscribe","stream":"mailboxes","intervalMs":50})");
  ASSERT_EQ(server.clients(), 2u);

  std::atomic<bool> flooding{true};
  std::thread producer([&] {
    const std::string payload(16 * 1024, 'x');
    while (flooding) {
      drop.tell(payload);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  int read_frames = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (server.clients() == 2 && std::chrono::steady_clock::now() < deadline) {
    if (reader.receive(1000)) ++read_frames;
  }
  flooding = false;
  producer.join();
  ASSERT_EQ(server.clients(), 1u) << "the client that never reads is still connected";
  EXPECT_GT(read_frames, 0);

  // The reader is still served: its stream goes on and a request is answered.
  ASSERT_TRUE(reader.receive(5000).has_value());
  reader.send(R"({"type":"request","id":"after","method":"inspect","params":{}})");
  bool answered = false;
  for (int i = 0; i < 50 && !answered; ++i) {
    auto frame = reader.receive(5000);
    if (!frame) break;
    const json j = json::parse(*frame);
    answered = j["type"] == "response" && j["id"] == "after";
  }
  EXPECT_TRUE(answered);
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);
  // What the slow one gets is what was in flight, then the end of the connection.
  EXPECT_TRUE(slow.closed_by_server(10000));
  system->terminate();
  system->await_termination();
}

// A client that reads, only too late: while it sleeps the server's bounded queue drops its frames
// instead of buffering them, so when it reads again the deadLetters stream's seq skips, and the
// first event past the gap is a fresh snapshot (the state it missed, not a delta it cannot apply).
// Resubscribing, as the protocol tells a client to on a gap, starts the stream over at seq 1 and
// deltas follow it again. Nobody is disconnected: the drop bound is far away.
TEST(DevtoolsServerSlowClient, LaggingClientSeesAGapThenAFreshSnapshotAndCanResubscribe) {
  DevtoolsOptions bounds;
  bounds.max_queued_frames = 2;
  bounds.max_dropped_frames = 1000000;  // never cut off here
  auto o = ActorSystemOptions::create();
  o.with_log_sink([](const LogEvent&) {})
      .with_dead_letters(
          DeadLetterQueueOptions::create().with_store("memory").with_max_entries(300))
      .with_devtools(bounds);
  auto system = ActorSystem::create("lag", std::move(o));
  DevtoolsEndpoint& server = *system->devtools();
  ActorRef drop = system->spawn(
      lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), "drop");

  WsClient lagging;
  const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
  // A small receive window, so the socket stops taking frames after a few.
  ASSERT_EQ(lagging.connect(server.port(), "/api/ws?token=" + server.token(), origin, 16 * 1024),
            101);
  lagging.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  ASSERT_TRUE(lagging.receive().has_value());
  const char* subscribe = R"({"type":"subscribe","stream":"deadLetters","limit":3})";
  lagging.send(subscribe);
  auto first = lagging.receive();
  ASSERT_TRUE(first.has_value());
  ASSERT_EQ(json::parse(*first)["kind"], "snapshot");

  // Far more than the sockets hold (~24 MB), one letter at a time so each is its own delta.
  const std::string payload(16 * 1024, 'x');
  constexpr int kLetters = 1500;
  for (int i = 0; i < kLetters; ++i) {
    drop.tell(payload);
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  // Every letter captured (so every frame made) before the client reads again.
  auto processed = [&] {
    for (const ActorSnapshot& row : system->inspect()) {
      if (row.path.size() >= 10 && row.path.compare(row.path.size() - 10, 10, "/user/drop") == 0)
        return row.processed;
    }
    return std::uint64_t{0};
  };
  for (int i = 0; i < 6000 && processed() < kLetters; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(processed(), std::uint64_t{kLetters});

  std::int64_t last = 1;
  std::optional<json> past_gap;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!past_gap && std::chrono::steady_clock::now() < deadline) {
    auto frame = lagging.receive(5000);
    ASSERT_TRUE(frame.has_value()) << "the stream ended after seq " << last << " without a gap";
    const json j = json::parse(*frame);
    if (j["type"] != "event" || j["stream"] != "deadLetters") continue;
    const std::int64_t seq = j["seq"];
    if (seq != last + 1) past_gap = j;
    last = seq;
  }
  ASSERT_TRUE(past_gap.has_value()) << "no frame was dropped: the flood fit in the buffers";
  EXPECT_EQ((*past_gap)["kind"], "snapshot") << "a delta followed the gap: " << past_gap->dump(0);
  EXPECT_EQ(server.clients(), 1u);

  // Read what is still in flight, so the resubscription's snapshot finds an empty queue.
  while (lagging.receive(500)) {
  }

  // The client's side of the rule: start the stream over.
  lagging.send(subscribe);
  bool restarted = false;
  while (!restarted) {
    auto frame = lagging.receive(5000);
    ASSERT_TRUE(frame.has_value()) << "no snapshot answered the resubscription";
    const json j = json::parse(*frame);
    restarted = j["type"] == "event" && j["kind"] == "snapshot" && j["seq"] == 1;
  }
  drop.tell(std::string("after the gap"));
  bool delta = false;
  for (int i = 0; i < 20 && !delta; ++i) {
    auto frame = lagging.receive(5000);
    if (!frame) break;
    const json j = json::parse(*frame);
    delta = j["type"] == "event" && j["kind"] == "delta" && j["seq"] == 2;
  }
  EXPECT_TRUE(delta) << "no delta with seq 2 after the new snapshot";
  system->terminate();
  system->await_termination();
}

}  // namespace
}  // namespace mailroom
