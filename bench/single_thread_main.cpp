// Single-threaded workloads, compiled twice — natively and with em++ — so
// scripts/bench.sh can report wasm as a ratio to native on identical code.
// Prints {"rows":[{"name","unit","value"}...]} (medians of 5 runs, CPU time).
//   mailroom_bench_st [--quick] [--only=<prefix>]
// --only runs just the rows whose name starts with the prefix (for profiling one
// row, e.g. --only=st_mailbox_pair/unbounded under node --cpu-prof).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "dead_letter_ops.hpp"
#include "mailbox_ops.hpp"
#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/host_driven_dispatcher.hpp"
#include "mailroom/manual_dispatcher.hpp"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#endif

using namespace mailroom;

namespace {

// CPU time of this process in ms, so a loaded machine (other processes
// wanting the cores) does not count against either side: clock_gettime
// natively, process.cpuUsage() in Node (the wasm build's clock() is wall time).
double cpu_ms() {
#ifdef __EMSCRIPTEN__
  return EM_ASM_DOUBLE({
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  });
#else
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
#endif
}

double median_ms(int runs, const std::function<void()>& fn) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const double t0 = cpu_ms();
    fn();
    times.push_back(cpu_ms() - t0);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Counter : Actor {
  explicit Counter(std::size_t* seen) : seen_(seen) {}
  void receive(const Message&) override { ++*seen_; }
  std::size_t* seen_;
};

struct Bouncer : Actor {
  explicit Bouncer(std::size_t limit) : limit_(limit) {}
  void receive(const Message& m) override {
    const int n = m.get<int>();
    if (static_cast<std::size_t>(n) < limit_) sender().tell(n + 1, self());
  }
  std::size_t limit_;
};

// One sender → one actor on the single-thread dispatcher: tell everything,
// then drive the dispatcher until the last message is received.
void one_to_one(std::size_t messages) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create("bench", ActorSystemOptions::create()
                                                 .with_dispatcher(dispatcher)
                                                 .with_metrics(false)
                                                 .with_log_sink([](const LogEvent&) {}));
  std::size_t seen = 0;
  auto sink = system->spawn<Counter>("sink", ActorOptions::create().with_throughput(256), &seen);
  for (std::size_t i = 0; i < messages; ++i) sink.tell(static_cast<int>(i));
  dispatcher->run_until_idle();
  if (seen != messages) std::fprintf(stderr, "one_to_one lost messages\n");
  system->terminate();
  system->await_termination();
}

// The same through the host-driven dispatcher, driven as the JS host drives
// it: time-boxed slices (run_for) until no work is left.
void one_to_one_host_slices(std::size_t messages) {
  auto dispatcher = std::make_shared<HostDrivenDispatcher>();
  auto system = ActorSystem::create("bench", ActorSystemOptions::create()
                                                 .with_dispatcher(dispatcher)
                                                 .with_metrics(false)
                                                 .with_log_sink([](const LogEvent&) {}));
  std::size_t seen = 0;
  auto sink = system->spawn<Counter>("sink", ActorOptions::create(), &seen);
  for (std::size_t i = 0; i < messages; ++i) sink.tell(static_cast<int>(i));
  while (dispatcher->has_work()) dispatcher->run_for(std::chrono::milliseconds(8));
  if (seen != messages) std::fprintf(stderr, "one_to_one_host_slices lost messages\n");
  system->terminate();
  system->await_termination();
}

void ping_pong(std::size_t round_trips) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create("bench", ActorSystemOptions::create()
                                                 .with_dispatcher(dispatcher)
                                                 .with_metrics(false)
                                                 .with_log_sink([](const LogEvent&) {}));
  auto a = system->spawn<Bouncer>("a", ActorOptions::create(), 2 * round_trips);
  auto b = system->spawn<Bouncer>("b", ActorOptions::create(), 2 * round_trips);
  a.tell(0, b);
  dispatcher->run_until_idle();
  system->terminate();
  system->await_termination();
}

double mailbox_pair_ns(const std::string& kind, std::size_t backlog, std::size_t ops) {
  auto box = bench::make_mailbox(kind, backlog + 1024);
  for (std::size_t i = 0; i < backlog; ++i)
    box->enqueue(bench::small_envelope(static_cast<int>(i)));
  return median_ms(3,
                   [&] {
                     for (std::size_t i = 0; i < ops; ++i) {
                       box->enqueue(bench::small_envelope(static_cast<int>(i)));
                       box->dequeue();
                     }
                   }) *
         1e6 / static_cast<double>(ops);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = false;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    quick = quick || std::strcmp(argv[i], "--quick") == 0;
    if (std::strncmp(argv[i], "--only=", 7) == 0) only = argv[i] + 7;
  }
  auto wanted = [&](const std::string& name) { return name.rfind(only, 0) == 0; };
  const std::size_t one = quick ? 100'000 : 1'000'000, trips = quick ? 20'000 : 200'000;
  const std::size_t ops = quick ? 100'000 : 1'000'000;
  std::vector<std::pair<std::string, std::pair<std::string, double>>> rows;
  auto row = [&](std::string name, std::string unit, double value) {
    rows.push_back({std::move(name), {std::move(unit), value}});
  };
  const int runs = quick ? 3 : 5;
  // Each row runs only when --only lets it.
  auto measure = [&](const std::string& name, const char* unit, const std::function<double()>& fn) {
    if (wanted(name)) row(name, unit, fn());
  };
  measure("st_one_to_one", "msgs/s", [&] {
    return static_cast<double>(one) / (median_ms(runs, [&] { one_to_one(one); }) / 1e3);
  });
  measure("st_one_to_one_host_slices", "msgs/s", [&] {
    return static_cast<double>(one) / (median_ms(runs, [&] { one_to_one_host_slices(one); }) / 1e3);
  });
  measure("st_ping_pong", "msgs/s", [&] {
    return 2.0 * static_cast<double>(trips) / (median_ms(runs, [&] { ping_pong(trips); }) / 1e3);
  });
  for (const char* kind :
       {"unbounded", "bounded-drop-head", "bounded-drop-new", "bounded-reject", "priority"}) {
    measure(std::string("st_mailbox_pair/") + kind, "ns",
            [&] { return mailbox_pair_ns(kind, 0, ops); });
  }
  measure("st_priority_backlog/1000", "ns",
          [&] { return mailbox_pair_ns("priority", 1000, ops / 4); });
  measure("st_priority_backlog/100000", "ns",
          [&] { return mailbox_pair_ns("priority", 100000, ops / 4); });
  measure("st_capture/memory", "ns", [&] {
    bench::CaptureBench capture("memory");
    const std::size_t letters = ops / 2;
    const double ms = median_ms(3, [&] {
      for (std::size_t i = 0; i < letters; ++i) capture.capture_one();
    });
    return ms * 1e6 / static_cast<double>(letters);
  });
  measure("st_list_recipient/100000", "ms", [&] {
    bench::ListBench list(100'000);
    return median_ms(5, [&] { list.list_recipient(); });
  });
  measure("st_bytes_per_queued_envelope", "bytes",
          [&] { return bench::bytes_per_queued_envelope(100'000); });
  std::printf("{\"rows\":[\n");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::printf("  {\"name\":\"%s\",\"unit\":\"%s\",\"value\":%.6g}%s\n", rows[i].first.c_str(),
                rows[i].second.first.c_str(), rows[i].second.second,
                i + 1 < rows.size() ? "," : "");
  }
  std::printf("]}\n");
  return 0;
}
