// The server under abuse (issue 31): a DNS-rebinding page is refused by its
// Host header; a client that stops reading is cut off by the bytes queued
// for it, not by a frame count; at the file-descriptor limit the listener
// pauses instead of spinning on EMFILE, and accepts again once it can.
#include <gtest/gtest.h>

#include <dirent.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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

struct Served {
  explicit Served(DevtoolsOptions options) {
    auto o = ActorSystemOptions::create();
    o.with_log_sink([this](const LogEvent& e) {
       std::lock_guard<std::mutex> lock(mutex);
       warnings.push_back(e.message);
     })
        .with_dead_letters(
            DeadLetterQueueOptions::create().with_store("memory").with_max_entries(5000))
        .with_devtools(std::move(options));
    system = ActorSystem::create("hardened", std::move(o));
  }
  ~Served() {
    system->terminate();
    system->await_termination();
  }
  DevtoolsEndpoint& server() { return *system->devtools(); }
  int warnings_containing(const std::string& text) {
    std::lock_guard<std::mutex> lock(mutex);
    int n = 0;
    for (const std::string& w : warnings) n += w.find(text) != std::string::npos;
    return n;
  }

  std::mutex mutex;
  std::vector<std::string> warnings;
  std::shared_ptr<ActorSystem> system;
};

TEST(DevtoolsServerHardening, ForeignHostNamesAreRefusedLoopbackNamesAndAddressesServed) {
  DevtoolsOptions options;
  options.allowed_hosts = {"devtools.internal"};
  Served s(options);
  const std::uint16_t port = s.server().port();
  const std::string p = ":" + std::to_string(port);
  for (const std::string& host :
       std::vector<std::string>{"evil.example" + p, "evil.example", "localhost.evil.example" + p,
                                "127.0.0.1.nip.io" + p}) {
    EXPECT_EQ(http_get(port, "/metrics", host).status, 403) << host;
    EXPECT_EQ(http_get(port, "/healthz", host).status, 403) << host;
  }
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1" + p, "localhost" + p, "LocalHost" + p, "[::1]" + p,
                                "10.1.2.3" + p, "DevTools.Internal" + p, "localhost"}) {
    EXPECT_EQ(http_get(port, "/healthz", host).status, 200) << host;
  }
}

// Frames would never be dropped (the frame bound is far away): only the byte
// budget can end it, and it does, with a log line; the server goes on.
TEST(DevtoolsServerHardening, NonReadingClientIsDisconnectedByTheBytesQueuedForIt) {
  DevtoolsOptions options;
  options.max_queued_frames = 1'000'000;
  options.max_dropped_frames = 1'000'000;
  options.max_queued_bytes = 512 * 1024;
  Served s(options);
  DevtoolsEndpoint& server = s.server();
  ActorRef drop = s.system->spawn(
      lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), "drop");
  WsClient slow;
  const std::string origin = "http://127.0.0.1:" + std::to_string(server.port());
  ASSERT_EQ(slow.connect(server.port(), "/api/ws?token=" + server.token(), origin, 4096), 101);
  slow.send(R"({"type":"hello","protocol":"mailroom-devtools","version":1})");
  ASSERT_TRUE(slow.receive().has_value());
  slow.send(R"({"type":"subscribe","stream":"deadLetters","intervalMs":60000})");

  std::atomic<bool> flooding{true};
  std::thread producer([&] {
    const std::string payload(16 * 1024, 'x');
    while (flooding) {
      drop.tell(payload);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (server.clients() == 1 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  flooding = false;
  producer.join();
  EXPECT_EQ(server.clients(), 0u) << "the client that never reads is still connected";
  EXPECT_EQ(s.warnings_containing("stopped reading"), 1);
  EXPECT_EQ(http_get(server.port(), "/healthz").status, 200);
}

std::size_t open_descriptors() {
  std::size_t n = 0;
  if (DIR* dir = ::opendir("/proc/self/fd")) {
    while (::readdir(dir) != nullptr) ++n;
    ::closedir(dir);
  }
  return n;  // counts ".", ".." and the listing's own descriptor: a few high
}

double process_cpu_seconds() {
  rusage use{};
  ::getrusage(RUSAGE_SELF, &use);
  return static_cast<double>(use.ru_utime.tv_sec + use.ru_stime.tv_sec) +
         static_cast<double>(use.ru_utime.tv_usec + use.ru_stime.tv_usec) / 1e6;
}

// A connection waits in the backlog while no descriptor is left to accept it:
// before the pause, the I/O thread retried at once, forever (a core at 100 %).
TEST(DevtoolsServerHardening, AtTheDescriptorLimitTheListenerPausesThenResumes) {
  Served s(DevtoolsOptions{});
  const std::uint16_t port = s.server().port();
  ASSERT_EQ(http_get(port, "/healthz").status, 200);
  rlimit saved{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &saved), 0);
  rlimit low = saved;
  low.rlim_cur = open_descriptors() + 8;
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &low), 0);
  // Take every descriptor left (the server's accepted ends take some too),
  // then free one and spend it on a connection the server cannot accept.
  std::vector<int> clients;
  for (int fd; (fd = testing::connect_loopback(port)) >= 0 && clients.size() < 64;)
    clients.push_back(fd);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the server takes what it can
  for (int fd; (fd = testing::connect_loopback(port)) >= 0 && clients.size() < 64;)
    clients.push_back(fd);
  ASSERT_FALSE(clients.empty());
  ::close(clients.back());
  clients.back() = testing::connect_loopback(port);
  ASSERT_GE(clients.back(), 0);

  const double before = process_cpu_seconds();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const double spent = process_cpu_seconds() - before;
  ::setrlimit(RLIMIT_NOFILE, &saved);
  for (int fd : clients) ::close(fd);
  EXPECT_LT(spent, 0.3) << "the listener spun on EMFILE";
  EXPECT_GE(s.warnings_containing("cannot accept connections"), 1);  // once per episode
  EXPECT_EQ(http_get(port, "/healthz").status, 200) << "the listener did not resume";
}

}  // namespace
}  // namespace mailroom
