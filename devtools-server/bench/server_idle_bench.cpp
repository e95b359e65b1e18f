// What the DevTools server costs while nobody is attached: workload 1 (one
// sender telling one actor on the thread pool, messages per second) in a
// system without the server and in one started with with_devtools() and no
// client, alternating rounds in one process so machine noise hits both.
// Prints each round and the ratio of the medians (on / off; the target is
// >= 0.95); --json prints one row for bench/report.mjs instead (scripts/bench.sh).
//   mailroom_devtools_idle_bench [--json] [messages=2000000] [rounds=5]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"

using namespace mailroom;

namespace {

class Counter : public Actor {
 public:
  explicit Counter(std::atomic<long>* seen) : seen_(seen) {}
  void receive(const Message&) override { seen_->fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<long>* seen_;
};

double run_once(long messages, bool with_server) {
  auto options = ActorSystemOptions::create();
  options.with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
      .with_dead_letters(DeadLetterQueueOptions::create().with_store("memory"))
      .with_log_sink([](const LogEvent&) {});  // no "DevTools: <url>" line in the figures
  if (with_server) options.with_devtools();    // what a user writes (this program links the server)
  auto system = ActorSystem::create("bench", std::move(options));
  if (with_server && system->devtools() == nullptr) std::abort();
  std::atomic<long> seen{0};
  ActorRef counter = system->spawn([&] { return std::make_unique<Counter>(&seen); }, "counter");
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < messages; ++i) counter.tell(static_cast<int>(i));
  while (seen.load(std::memory_order_relaxed) < messages) std::this_thread::yield();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  system->terminate();  // stops the server too
  system->await_termination();
  return static_cast<double>(messages) / seconds;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
  if (json) {
    --argc;
    ++argv;
  }
  const long messages = argc > 1 ? std::atol(argv[1]) : 2'000'000;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 5;
  std::vector<double> off, on;
  run_once(messages / 10, false);  // warm-up
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first, so a drift in the machine's load is shared.
    const bool server_first = r % 2 == 1;
    for (int k = 0; k < 2; ++k) {
      const bool with_server = (k == 0) == server_first;
      const double rate = run_once(messages, with_server);
      (with_server ? on : off).push_back(rate);
      std::fprintf(json ? stderr : stdout, "round %d %-10s %.3f M msg/s\n", r + 1,
                   with_server ? "server-on" : "server-off", rate / 1e6);
    }
  }
  if (json) {
    std::printf(
        "{\"rows\":[{\"name\":\"w1 with the DevTools server on, no client (%ld messages, 2 "
        "workers, %d alternating rounds)\",\"unit\":\"msgs/s\",\"value\":%.0f,\"peerValue\":%.0f,"
        "\"peerName\":\"same process, no server (target ratio >= 0.95)\"}]}\n",
        messages, rounds, median(on), median(off));
    return 0;
  }
  std::printf("median off %.3f M msg/s, on (no client) %.3f M msg/s, ratio on/off %.3f\n",
              median(off) / 1e6, median(on) / 1e6, median(on) / median(off));
  return 0;
}
