// The native DevTools server against a real system on a thread pool, through a
// real socket: health and metrics without a token (checked by promtool), the
// token and Origin checks, the protocol over the WebSocket, read-only replay,
// the panel files. (That nobody attached costs nothing is measured, not
// asserted: devtools-server/bench/server_idle_bench.cpp.)
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_server.hpp"
#include "mailroom/errors.hpp"
#include "support/runtime_harness.hpp"
#include "ws_client.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::http_get;
using testing::lambda_actor;
using testing::LambdaActor;
using testing::WsClient;

struct Harness {
  explicit Harness(DevtoolsServerOptions options = {}) {
    auto o = ActorSystemOptions::create();
    o.with_log_sink([](const LogEvent&) {
     }).with_dead_letters(DeadLetterQueueOptions::create().with_store("memory"));
    system = ActorSystem::create("native", std::move(o));
    drop = system->spawn(lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }),
                         "drop");
    server = DevtoolsServer::start(system, std::move(options));
  }
  ~Harness() {
    server->stop();
    system->terminate();
    system->await_termination();
  }
  std::string ws_target() const { return "/api/ws?token=" + server->token(); }
  std::string origin() const { return "http://127.0.0.1:" + std::to_string(server->port()); }
  // A greeted client.
  void attach(WsClient& client) {
    ASSERT_EQ(client.connect(server->port(), ws_target(), origin()), 101);
    client.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
    auto welcome = client.receive();
    ASSERT_TRUE(welcome.has_value());
    ASSERT_EQ(json::parse(*welcome)["type"], "welcome");
  }
  json next(WsClient& client) {
    auto text = client.receive();
    return text ? json::parse(*text) : json();
  }

  std::shared_ptr<ActorSystem> system;
  ActorRef drop;
  std::unique_ptr<DevtoolsServer> server;
};

// /healthz and /metrics answer without a token; /metrics is valid Prometheus text (promtool check
// metrics).
TEST(DevtoolsServer, HealthAndMetricsNeedNoTokenAndMetricsPassPromtool) {
  Harness h;
  h.drop.tell(std::string("counted"));
  const auto health = http_get(h.server->port(), "/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.body, "ok\n");
  testing::HttpReply metrics;
  for (int i = 0; i < 100; ++i) {  // the letter is counted on a pool thread
    metrics = http_get(h.server->port(), "/metrics");
    if (metrics.body.find("outcome=\"captured\"} 1") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.headers.find("text/plain; version=0.0.4"), std::string::npos);
  EXPECT_NE(metrics.body.find("actor_dead_letters_total{outcome=\"captured\"} 1"),
            std::string::npos);
  if (std::system("command -v promtool > /dev/null 2>&1") != 0) {
    GTEST_SKIP() << "promtool (Debian prometheus) is not installed: run scripts/bootstrap.sh";
  }
  const auto file = std::filesystem::temp_directory_path() /
                    ("mailroom-scrape-" + std::to_string(h.server->port()) + ".txt");
  std::ofstream(file) << metrics.body;
  const std::string command = "promtool check metrics < " + file.string() + " > /dev/null 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << metrics.body;
  std::filesystem::remove(file);
}

// hello → welcome over a real WebSocket with the token and the server's own Origin.
TEST(DevtoolsServer, WebSocketHelloIsWelcomed) {
  Harness h;
  WsClient client;
  ASSERT_EQ(client.connect(h.server->port(), h.ws_target(), h.origin()), 101);
  client.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  json welcome = h.next(client);
  EXPECT_EQ(welcome["type"], "welcome");
  EXPECT_EQ(welcome["system"], "native");
  EXPECT_EQ(welcome["writes"], false);
  EXPECT_EQ(h.server->clients(), 1u);
}

// Without the token, or with a wrong one, the upgrade is refused (401) and the panel page too.
TEST(DevtoolsServer, WrongOrMissingTokenIsRefused) {
  Harness h;
  WsClient client;
  EXPECT_EQ(client.connect(h.server->port(), "/api/ws?token=wrong", h.origin()), 401);
  EXPECT_EQ(client.connect(h.server->port(), "/api/ws", h.origin()), 401);
  EXPECT_EQ(http_get(h.server->port(), "/").status, 401);
  EXPECT_EQ(http_get(h.server->port(), "/?token=nope").status, 401);
  EXPECT_EQ(h.server->token().size(), 32u);
}

// A page from another origin cannot open the socket even with the token (403); a listed origin can.
TEST(DevtoolsServer, ForeignOriginIsRefused) {
  DevtoolsServerOptions o;
  o.allowed_origins = {"http://localhost:5173"};
  Harness h(o);
  WsClient client;
  EXPECT_EQ(client.connect(h.server->port(), h.ws_target(), "https://evil.example"), 403);
  EXPECT_EQ(client.connect(h.server->port(), h.ws_target(), "http://127.0.0.1:1"), 403);
  EXPECT_EQ(client.connect(h.server->port(), h.ws_target(), "http://localhost:5173"), 101);
}

// An unknown frame is answered with unknown-frame; a frame before hello closes the connection.
TEST(DevtoolsServer, UnknownFrameIsRejectedAndNoHelloCloses) {
  Harness h;
  WsClient client;
  h.attach(client);
  client.send(R"({"type":"launch","id":1})");
  json error = h.next(client);
  EXPECT_EQ(error["type"], "error");
  EXPECT_EQ(error["code"], "unknown-frame");

  WsClient rude;
  ASSERT_EQ(rude.connect(h.server->port(), h.ws_target(), h.origin()), 101);
  rude.send(R"({"type":"subscribe","stream":"mailboxes"})");
  EXPECT_EQ(h.next(rude)["code"], "hello-required");
  EXPECT_TRUE(rude.closed_by_server());
}

// subscribe deadLetters: a snapshot, then a dead letter made after it arrives as a pushed delta.
TEST(DevtoolsServer, DeadLettersSnapshotThenPushedDelta) {
  Harness h;
  WsClient client;
  h.attach(client);
  client.send(R"({"type":"subscribe","stream":"deadLetters","intervalMs":60000})");
  json snapshot = h.next(client);
  ASSERT_EQ(snapshot["kind"], "snapshot");
  EXPECT_EQ(snapshot["seq"], 1);
  EXPECT_TRUE(snapshot["entries"].empty());
  h.drop.tell(std::string("lost"));
  // intervalMs is a minute: only the queue's change listener can bring this in time.
  json delta = h.next(client);
  ASSERT_EQ(delta["kind"], "delta") << delta.dump();
  EXPECT_EQ(delta["seq"], 2);
  ASSERT_EQ(delta["captured"].size(), 1u);
  EXPECT_EQ(delta["captured"][0]["recipientPath"], "/user/drop");
  EXPECT_EQ(delta["captured"][0]["payload"]["value"], "lost");
}

// subscribe mailboxes: the snapshot lists the system's actors.
TEST(DevtoolsServer, MailboxesSnapshotListsActors) {
  Harness h;
  WsClient client;
  h.attach(client);
  client.send(R"({"type":"subscribe","stream":"mailboxes"})");
  json snapshot = h.next(client);
  ASSERT_EQ(snapshot["kind"], "snapshot");
  bool found = false;
  for (const json& row : snapshot["rows"]) found = found || row["path"] == "/user/drop";
  EXPECT_TRUE(found) << snapshot.dump();
  json delta = h.next(client);  // the interval's delta follows
  EXPECT_EQ(delta["kind"], "delta") << delta.dump();
  EXPECT_EQ(delta["seq"], 2);
}

// Read-only by default: replay answers unavailable and the entry stays; allow_writes replays.
TEST(DevtoolsServer, ReplayRefusedWhenReadOnly) {
  for (bool writes : {false, true}) {
    DevtoolsServerOptions o;
    o.allow_writes = writes;
    Harness h(o);
    h.drop.tell(std::string("again"));
    for (int i = 0; i < 200 && h.system->dead_letter_queue().list().empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    WsClient client;
    h.attach(client);
    client.send(
        R"({"type":"request","id":"r","method":"deadLetters.replay","params":{"id":"1","path":"/user/nobody"}})");
    json answer = h.next(client);
    if (writes) {
      EXPECT_EQ(answer["type"], "response");
      EXPECT_EQ(answer["result"]["outcome"], "unresolved-recipient");
    } else {
      EXPECT_EQ(answer["type"], "error");
      EXPECT_EQ(answer["code"], "unavailable");
    }
    EXPECT_EQ(h.system->dead_letter_queue().list().size(), 1u);
  }
}

// The panel: index.html with the token, its assets without one, nothing outside its folder.
TEST(DevtoolsServer, ServesThePanelFolderAndNothingElse) {
  const auto dir = std::filesystem::temp_directory_path() / "mailroom-panel-test";
  std::filesystem::create_directories(dir / "assets");
  std::ofstream(dir / "index.html") << "<!doctype html><title>panel</title>";
  std::ofstream(dir / "assets" / "app.js") << "export {};";
  DevtoolsServerOptions o;
  o.panel_dir = dir.string();
  Harness h(o);
  const auto page = http_get(h.server->port(), "/?token=" + h.server->token());
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("<title>panel</title>"), std::string::npos);
  EXPECT_NE(page.headers.find("Referrer-Policy: no-referrer"), std::string::npos);
  const auto script = http_get(h.server->port(), "/assets/app.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_NE(script.headers.find("text/javascript"), std::string::npos);
  EXPECT_EQ(http_get(h.server->port(), "/../../etc/passwd").status, 404);
  EXPECT_EQ(http_get(h.server->port(), "/assets/missing.js").status, 404);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mailroom
