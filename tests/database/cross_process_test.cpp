// Issue 18's "done means" at protocol level: two processes (shared_store_node)
// on one store, each with its DevTools server. Over each one's WebSocket the
// other's stream and letters are listed (deadLetters.streams, deadLetters.list
// {stream}); mailroom-dlq lists both streams by URL; a replay goes to the
// owner's endpoint (the other answers not-owner and writes nothing). Once with
// one SQLite file, once with a throw-away PostgreSQL server.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/child_process.hpp"
#include "support/pg_cluster.hpp"
#include "support/temp_dir.hpp"
#include "ws_client.hpp"

namespace mailroom {
namespace {

using nlohmann::json;
using testing::ChildProcess;

const std::string kShop = "mailroom-dead-letters-shop";
const std::string kBilling = "mailroom-dead-letters-billing";

// A node's DevTools endpoint, greeted: requests answered one at a time.
struct Endpoint {
  explicit Endpoint(const std::string& attach_url) {
    // http://127.0.0.1:<port>/?token=<t>
    const auto colon = attach_url.rfind(':');
    port = static_cast<std::uint16_t>(std::stoi(attach_url.substr(colon + 1)));
    token = attach_url.substr(attach_url.find("token=") + 6);
    const int status =
        ws.connect(port, "/api/ws?token=" + token, "http://127.0.0.1:" + std::to_string(port));
    EXPECT_EQ(status, 101);
    ws.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
    welcome = json::parse(ws.receive().value_or("null"));
  }
  // The response (or error) to one request; events in between are skipped.
  json request(const std::string& method, const json& params = json::object()) {
    const std::string id = std::to_string(++next_id);
    ws.send(json{{"type", "request"}, {"id", id}, {"method", method}, {"params", params}}.dump());
    while (auto text = ws.receive()) {
      json frame = json::parse(*text);
      if (frame.value("id", json()) == id) return frame;
    }
    return json{{"type", "timeout"}};
  }
  std::uint16_t port = 0;
  std::string token;
  testing::WsClient ws;
  json welcome;
  int next_id = 0;
};

struct Node {
  Node(const std::string& system, const std::string& url, std::vector<std::string> extra = {})
      : process([&] {
          std::vector<std::string> argv{
              MAILROOM_NODE_BINARY, "--system", system, "--journal", url, "--port", "0"};
          argv.insert(argv.end(), extra.begin(), extra.end());
          return argv;
        }()) {
    stream = process.wait_for("Stream: ");
    attach = process.wait_for("Attach: ");
    process.wait_for("Ready");
  }
  ChildProcess process;
  std::string stream;
  std::string attach;
};

std::string dlq(const std::string& args, int* code) {
  std::string out;
  FILE* pipe = ::popen((std::string(MAILROOM_DLQ_BINARY) + " " + args).c_str(), "r");
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = ::pclose(pipe);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

std::vector<std::string> values(const json& response) {
  std::vector<std::string> out;
  for (const json& e : response["result"]["entries"]) out.push_back(e["payload"]["value"]);
  return out;
}
// The same, sorted (letters captured in one millisecond have no order by time).
std::vector<std::string> sorted_values(const json& response) {
  std::vector<std::string> out = values(response);
  std::sort(out.begin(), out.end());
  return out;
}

// The whole scenario on one store URL.
void two_processes_share(const std::string& url) {
  Node shop("shop", url, {"--orders", "2"});
  Node billing("billing", url, {"--orders", "3", "--allow-writes"});
  ASSERT_EQ(shop.stream, kShop);
  ASSERT_EQ(billing.stream, kBilling);
  Endpoint a(shop.attach);
  Endpoint b(billing.attach);
  EXPECT_EQ(a.welcome["deadLetterStream"], kShop);
  EXPECT_EQ(b.welcome["deadLetterStream"], kBilling);

  // Each process's endpoint lists both streams with their live counts (orders + one to nobody).
  const json expected = json::parse(R"({"own":null,"streams":[
      {"stream":"mailroom-dead-letters-billing","system":"billing","size":4,"own":null},
      {"stream":"mailroom-dead-letters-shop","system":"shop","size":3,"own":null}]})");
  json for_a = expected, for_b = expected;
  for_a["own"] = kShop;
  for_a["streams"][0]["own"] = false;
  for_a["streams"][1]["own"] = true;
  for_b["own"] = kBilling;
  for_b["streams"][0]["own"] = true;
  for_b["streams"][1]["own"] = false;
  EXPECT_EQ(a.request("deadLetters.streams")["result"], for_a);
  EXPECT_EQ(b.request("deadLetters.streams")["result"], for_b);

  // Each sees the other's letters, newest first, by recipient subtree.
  const json theirs =
      a.request("deadLetters.list", {{"stream", kBilling}, {"recipient", "/user/orders"}});
  EXPECT_EQ(sorted_values(theirs),
            (std::vector<std::string>{"order billing 0", "order billing 1", "order billing 2"}))
      << theirs.dump();
  EXPECT_EQ(theirs["result"]["entries"][0]["cause"], "unhandled");
  const json ours = b.request("deadLetters.list", {{"stream", kShop}});
  EXPECT_EQ(sorted_values(ours),
            (std::vector<std::string>{"lost shop", "order shop 0", "order shop 1"}))
      << ours.dump();

  // mailroom-dlq, by URL, lists both streams' letters (read-only, while both run).
  int code = -1;
  const std::string text = dlq("list '" + url + "' --json", &code);
  ASSERT_EQ(code, 0) << text;
  const json all = json::parse(text);
  std::size_t of_shop = 0, of_billing = 0;
  for (const json& e : all) (e["stream"] == kShop ? of_shop : of_billing) += 1;
  EXPECT_EQ(of_shop, 3u);
  EXPECT_EQ(of_billing, 4u);

  // A replay of billing's letter through the shop's endpoint is refused (not its stream) and
  // changes nothing; through billing's own endpoint it is delivered, and the letter, unhandled
  // again, comes back as the same entry, which the shop then sees with replayCount 1.
  const std::string id = theirs["result"]["entries"][0]["id"];
  EXPECT_EQ(a.request("deadLetters.replay", {{"id", id}, {"stream", kBilling}})["code"],
            "not-owner");
  const json replayed = b.request("deadLetters.replay", {{"id", id}, {"stream", kBilling}});
  EXPECT_EQ(replayed["result"]["outcome"], "replayed") << replayed.dump();
  json again;
  const auto returned = [&](const json& list) -> const json* {
    for (const json& e : list["result"]["entries"])
      if (e["id"] == id && e["replayCount"] == 1) return &e;
    return nullptr;
  };
  // The owner journals the returned letter on its writer thread (batches of up to 20 ms).
  for (int i = 0; i < 250; ++i) {
    again = a.request("deadLetters.list", {{"stream", kBilling}, {"recipient", "/user/orders"}});
    if (returned(again) != nullptr) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(returned(again), nullptr) << again.dump();
  EXPECT_EQ(again["result"]["entries"].size(), 3u);
  EXPECT_EQ(shop.process.stop(), 0);
  EXPECT_EQ(billing.process.stop(), 0);
}

// Two processes on one SQLite file see each other's letters over DevTools and in mailroom-dlq.
TEST(CrossProcess, TwoProcessesShareOneSqliteFile) {
  testing::TempDir dir;
  two_processes_share("sqlite:" + dir.file("shared.db"));
}

// What a program printed on stdout and stderr, and how it ended: its exit code,
// or -1 when a signal ended it (an abort).
std::string run(const std::string& command, int* code) {
  std::string out;
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  const int status = ::pclose(pipe);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// A flag that takes a number, given something else, is named and the node exits 2 (usage),
// rather than aborting on an uncaught std::invalid_argument / std::out_of_range.
TEST(CrossProcess, NodeNamesANonNumberFlagAndExits2) {
  testing::TempDir dir;
  const std::string node =
      std::string(MAILROOM_NODE_BINARY) + " --system shop --journal sqlite:" + dir.file("flags.db");
  for (const std::string& bad : {std::string("--orders many"), std::string("--orders 3x"),
                                 std::string("--orders 99999999999"), std::string("--port -1"),
                                 std::string("--port 70000")}) {
    int code = 0;
    const std::string said = run(node + " " + bad, &code);
    EXPECT_EQ(code, 2) << bad << ": " << said;
    const std::string flag = bad.substr(0, bad.find(' '));
    EXPECT_NE(said.find(flag + " takes a whole number"), std::string::npos) << bad << ": " << said;
  }
}

// The same on PostgreSQL: a throw-away server (MAILROOM_REQUIRE_POSTGRES=1 makes its absence fail).
TEST(CrossProcess, TwoProcessesShareOnePostgresDatabase) {
  const std::string why = testing::PgCluster::unavailable_reason();
  if (!why.empty()) {
    const char* require = std::getenv("MAILROOM_REQUIRE_POSTGRES");
    if (require && std::string(require) == "1") FAIL() << why;
    GTEST_SKIP() << "PostgreSQL test skipped: " << why;
  }
  testing::PgCluster cluster;
  two_processes_share(cluster.url());
}

}  // namespace
}  // namespace mailroom
