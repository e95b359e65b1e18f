// What the DevTools server costs while nobody is attached: workload 1 (one
// sender telling one actor on the thread pool, messages per second) in a
// system without the server and in one started with with_devtools() and no
// client, alternating rounds in one process so machine noise hits both.
// Prints each round, the ratio of the medians (on / off; the target is
// >= 0.95), the median of each round's own on/off ratio (the pair ran back to
// back, so it shares the machine's load) and the process CPU time per message
// (all threads; less sensitive than wall time to other processes on a loaded
// machine). --json prints one row for bench/report.mjs instead (scripts/bench.sh).
//   mailroom_devtools_idle_bench [--json] [messages=2000000] [rounds=5]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
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

struct Round {
  double rate;        // messages per second, first send to last receive
  double cpu_ns_msg;  // process CPU time (every thread) per message
};

Round run_once(long messages, bool with_server) {
  auto options = ActorSystemOptions::create();
  options.with_dispatcher(std::make_shared<ThreadPoolDispatcher>(2))
      .with_dead_letters(DeadLetterQueueOptions::create().with_store("memory"))
      .with_log_sink([](const LogEvent&) {});  // no "DevTools: <url>" line in the figures
  if (with_server) options.with_devtools();    // what a user writes (this program links the server)
  auto system = ActorSystem::create("bench", std::move(options));
  if (with_server && system->devtools() == nullptr) std::abort();
  std::atomic<long> seen{0};
  ActorRef counter = system->spawn([&] { return std::make_unique<Counter>(&seen); }, "counter");
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < messages; ++i) counter.tell(static_cast<int>(i));
  while (seen.load(std::memory_order_relaxed) < messages) std::this_thread::yield();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  system->terminate();  // stops the server too
  system->await_termination();
  return {static_cast<double>(messages) / seconds,
          cpu_seconds * 1e9 / static_cast<double>(messages)};
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
  std::vector<double> off, on, paired, cpu_off, cpu_on;
  run_once(messages / 10, false);  // warm-up
  for (int r = 0; r < rounds; ++r) {
    // Alternate which goes first, so a drift in the machine's load is shared.
    const bool server_first = r % 2 == 1;
    for (int k = 0; k < 2; ++k) {
      const bool with_server = (k == 0) == server_first;
      const Round round = run_once(messages, with_server);
      (with_server ? on : off).push_back(round.rate);
      (with_server ? cpu_on : cpu_off).push_back(round.cpu_ns_msg);
      std::fprintf(json ? stderr : stdout, "round %d %-10s %.3f M msg/s  %.0f ns CPU/msg\n", r + 1,
                   with_server ? "server-on" : "server-off", round.rate / 1e6, round.cpu_ns_msg);
    }
    paired.push_back(on.back() / off.back());
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
  std::printf("median of the per-round on/off ratios %.3f\n", median(paired));
  std::printf("CPU per message: off %.0f ns, on %.0f ns, ratio off/on %.3f\n", median(cpu_off),
              median(cpu_on), median(cpu_off) / median(cpu_on));
  return 0;
}
