// ActorSystemOptions::with_devtools and HOCON mailroom.devtools with the
// server library linked (this test links mailroom::devtools_server and calls
// nothing of it: linking is what installs the starter). The server runs while
// the system does and stops at terminate.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_extension.hpp"
#include "mailroom/errors.hpp"
#include "ws_client.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::http_get;
using testing::WsClient;

ActorSystemOptions quiet() {
  auto o = ActorSystemOptions::create();
  o.with_log_sink([](const LogEvent&) {});
  return o;
}

json hello(WsClient& client, const DevtoolsEndpoint& server) {
  const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
  if (client.connect(server.port(), "/api/ws?token=" + server.token(), origin) != 101) return {};
  client.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  auto welcome = client.receive();
  return welcome ? json::parse(*welcome) : json();
}

// One option and the process serves /healthz and the protocol; terminate() stops the server (the
// socket is closed, the port answers nothing) before the system is gone.
TEST(WithDevtools, OneOptionServesTheProtocolUntilTerminate) {
  ASSERT_NE(DevtoolsExtension::starter(), nullptr) << "linking the library installs the starter";
  std::vector<std::string> logged;
  auto o = quiet();
  o.with_log_sink([&](const LogEvent& e) { logged.push_back(e.message); }).with_devtools();
  auto system = ActorSystem::create("app", std::move(o));
  DevtoolsEndpoint* server = system->devtools();
  ASSERT_NE(server, nullptr);
  const std::uint16_t port = server->port();
  EXPECT_NE(port, 0);
  EXPECT_EQ(http_get(port, "/healthz").status, 200);
  WsClient client;
  json welcome = hello(client, *server);
  EXPECT_EQ(welcome["type"], "welcome");
  EXPECT_EQ(welcome["system"], "app");
  EXPECT_EQ(welcome["writes"], false);
  // Where to attach is printed at start (the token is only in that URL).
  ASSERT_GE(logged.size(), 2u);
  EXPECT_EQ(logged[0], "DevTools: " + server->url());
  EXPECT_EQ(logged[1], "Metrics: " + server->metrics_url());

  system->terminate();
  system->await_termination();
  EXPECT_TRUE(client.closed_by_server());
  EXPECT_EQ(server->clients(), 0u);
  EXPECT_EQ(http_get(port, "/healthz").status, 0) << "nothing listens after terminate";
}

// HOCON alone starts it the same way, with the block's fields (here: writes allowed).
TEST(WithDevtools, HoconBlockStartsTheServer) {
  auto system = ActorSystem::create(
      "configured", quiet().with_config("mailroom.devtools { port = 0, allow-writes = true }"));
  ASSERT_NE(system->devtools(), nullptr);
  WsClient client;
  EXPECT_EQ(hello(client, *system->devtools())["writes"], true);
  system->terminate();
  system->await_termination();
}

// Every key of the block reaches the running server: bind, port, allowed-origins (those pages may
// open the socket, others still may not), panel-dir (served at "/"), and read-only by default.
TEST(WithDevtools, HoconKeysReachTheRunningServer) {
  const auto dir = std::filesystem::temp_directory_path() / "mailroom-hocon-panel";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "index.html") << "<title>hocon panel</title>";
  auto system = ActorSystem::create(
      "keys", quiet().with_config("mailroom.devtools { bind = \"127.0.0.1\", port = 0, "
                                  "allowed-origins = \"http://localhost:5173, http://tools.test\", "
                                  "panel-dir = \"" +
                                  dir.string() + "\" }"));
  ASSERT_NE(system->devtools(), nullptr);
  const DevtoolsEndpoint& server = *system->devtools();
  EXPECT_EQ(server.url().rfind("http://127.0.0.1:", 0), 0u);
  const std::string ws = "/api/ws?token=" + server.token();
  for (const char* allowed : {"http://localhost:5173", "http://tools.test"}) {
    WsClient client;
    EXPECT_EQ(client.connect(server.port(), ws, allowed), 101) << allowed;
  }
  WsClient foreign;
  EXPECT_EQ(foreign.connect(server.port(), ws, "http://localhost:5174"), 403);
  const auto page = http_get(server.port(), "/?token=" + server.token());
  EXPECT_EQ(page.status, 200);
  EXPECT_NE(page.body.find("hocon panel"), std::string::npos);
  WsClient client;
  EXPECT_EQ(hello(client, server)["writes"], false) << "allow-writes is off unless set";
  system->terminate();
  system->await_termination();
  std::filesystem::remove_all(dir);
}

// The token is random per start: two starts of the same options get different ones, each 32 hex
// characters, and one start's token opens nothing on the other.
TEST(WithDevtools, EachStartHasItsOwnRandomToken) {
  auto first = ActorSystem::create("first", quiet().with_devtools());
  auto second = ActorSystem::create("second", quiet().with_devtools());
  const std::string a = first->devtools()->token();
  const std::string b = second->devtools()->token();
  EXPECT_NE(a, b);
  for (const std::string& token : {a, b}) {
    EXPECT_EQ(token.size(), 32u);
    EXPECT_EQ(token.find_first_not_of("0123456789abcdef"), std::string::npos) << token;
  }
  EXPECT_EQ(http_get(second->devtools()->port(), "/?token=" + a).status, 401);
  first->terminate();
  second->terminate();
  first->await_termination();
  second->await_termination();
}

// with_devtools wins over the HOCON block; enabled = false in HOCON alone starts nothing.
TEST(WithDevtools, CodeOptionWinsAndDisabledBlockStartsNothing) {
  DevtoolsOptions writes;
  writes.allow_writes = true;
  auto coded = ActorSystem::create(
      "coded",
      quiet().with_config("mailroom.devtools { allow-writes = false }").with_devtools(writes));
  WsClient client;
  EXPECT_EQ(hello(client, *coded->devtools())["writes"], true);
  auto off = ActorSystem::create("off", quiet().with_config("mailroom.devtools.enabled = false"));
  EXPECT_EQ(off->devtools(), nullptr);
}

// A port that is taken fails create() with the server's error; the system it had built is torn
// down (a second attempt on a free port works).
TEST(WithDevtools, TakenPortFailsCreate) {
  auto first = ActorSystem::create("first", quiet().with_devtools());
  DevtoolsOptions same;
  same.port = first->devtools()->port();
  EXPECT_THROW(ActorSystem::create("second", quiet().with_devtools(same)), std::runtime_error);
  auto second = ActorSystem::create("second", quiet().with_devtools());
  EXPECT_NE(second->devtools()->port(), same.port);
}

// Destroying the system without terminate() first still stops the server before the system goes.
TEST(WithDevtools, DestroyingTheSystemStopsTheServer) {
  std::uint16_t port = 0;
  WsClient client;
  {
    auto system = ActorSystem::create("dropped", quiet().with_devtools());
    port = system->devtools()->port();
    ASSERT_EQ(hello(client, *system->devtools())["type"], "welcome");
  }
  EXPECT_TRUE(client.closed_by_server());
  EXPECT_EQ(http_get(port, "/healthz").status, 0);
}

}  // namespace
}  // namespace mailroom
