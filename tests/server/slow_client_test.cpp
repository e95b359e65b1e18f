// A client that never reads: its frames pile up in the socket, then in the
// server's bounded per-socket queue, then are dropped (a gap), and past the
// drop bound it is disconnected, while the server and another client carry
// on. The process never buffers without bound for it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
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

}  // namespace
}  // namespace mailroom
