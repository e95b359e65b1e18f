// Native benchmarks: Mailroom against CAF 0.17 in the same process, plus the
// physical reference and the core's own costs. Each peer pair is registered
// side by side and Google Benchmark interleaves repetitions randomly
// (--benchmark_enable_random_interleaving), so both see the same machine.
// scripts/bench.sh turns the JSON into bench/results/latest.json.
//   --quick   smaller counts (the same benchmarks, for a < 60 s run)
//   --peak-rss=mailroom|caf   run workload 1 (1 worker) once in this fresh
//             process and print {"peak_rss_kb": N}: the process's high-water
//             mark, so run it alone (scripts/bench.sh does, once per runtime)
#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "background_load.hpp"
#include "caf_peer.hpp"
#include "dead_letter_ops.hpp"
#include "mailbox_ops.hpp"
#include "mailroom_workloads.hpp"
#include "reference_handoff.hpp"

namespace mb = mailroom::bench;

namespace {

bool quick = false;
std::size_t scaled(std::size_t full) {
  return quick ? full / 10 : full;
}

// CPU time of the whole process (every thread: senders, workers, and the
// background load's threads where there are any), in nanoseconds.
double process_cpu_ns() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto ns = [](const timeval& t) { return 1e9 * static_cast<double>(t.tv_sec) + 1e3 * t.tv_usec; };
  return ns(usage.ru_utime) + ns(usage.ru_stime);
}

// msgs_per_s (wall), and cpu_ns_per_msg: the process's CPU time per message,
// steadier than wall time on a machine others load (spinning counts too). Not
// for the loaded rows: the background load's threads would count.
enum class Cpu { kCount, kSkip };
template <class Fn>
void run_workload(benchmark::State& state, std::size_t messages, Fn fn,
                  Cpu cpu_counter = Cpu::kCount) {
  double cpu = 0;
  for (auto _ : state) {
    const double start = process_cpu_ns();
    fn();
    cpu += process_cpu_ns() - start;
  }
  const double total = static_cast<double>(messages) * static_cast<double>(state.iterations());
  state.counters["msgs_per_s"] = benchmark::Counter(total, benchmark::Counter::kIsRate);
  if (cpu_counter == Cpu::kCount)
    state.counters["cpu_ns_per_msg"] = benchmark::Counter(cpu / total);
}

// A whole workload per iteration: one iteration, wall-clock time.
void whole_run(benchmark::internal::Benchmark* b) {
  b->Iterations(1)->UseRealTime()->Unit(benchmark::kMillisecond);
}

void register_workloads() {
  const std::size_t one = scaled(1'000'000), trips = scaled(200'000), per = scaled(250'000);
  for (std::size_t workers : {1, 2}) {
    const std::string w = "/workers:" + std::to_string(workers);
    benchmark::RegisterBenchmark(("w1_one_to_one" + w + "/mailroom").c_str(), [=](benchmark::State&
                                                                                      s) {
      run_workload(s, one, [&] { mb::mailroom_one_to_one(workers, one); });
    })->Apply(whole_run);
    benchmark::RegisterBenchmark(("w1_one_to_one" + w + "/caf").c_str(), [=](benchmark::State& s) {
      run_workload(s, one, [&] { mb::caf_one_to_one(workers, one); });
    })->Apply(whole_run);
  }
  benchmark::RegisterBenchmark("w1_one_to_one/reference_spsc", [=](benchmark::State& s) {
    run_workload(s, one, [&] { mb::reference_spsc_handoff(one); });
  })->Apply(whole_run);
  benchmark::RegisterBenchmark("w2_ping_pong/workers:2/mailroom", [=](benchmark::State& s) {
    run_workload(s, 2 * trips, [&] { mb::mailroom_ping_pong(2, trips); });
  })->Apply(whole_run);
  benchmark::RegisterBenchmark("w2_ping_pong/workers:2/caf", [=](benchmark::State& s) {
    run_workload(s, 2 * trips, [&] { mb::caf_ping_pong(2, trips); });
  })->Apply(whole_run);
  // Under load: two hashing threads at normal priority keep both cores wanted
  // while the workload runs (started and stopped outside the timed region's
  // peer: each repetition of either runtime gets its own fresh load).
  for (std::size_t workers : {1, 2}) {
    const std::string w = "/workers:" + std::to_string(workers);
    benchmark::RegisterBenchmark(("w1_loaded" + w + "/mailroom").c_str(), [=](benchmark::State& s) {
      mb::BackgroundLoad load;
      run_workload(
          s, one, [&] { mb::mailroom_one_to_one(workers, one); }, Cpu::kSkip);
    })->Apply(whole_run);
    benchmark::RegisterBenchmark(("w1_loaded" + w + "/caf").c_str(), [=](benchmark::State& s) {
      mb::BackgroundLoad load;
      run_workload(
          s, one, [&] { mb::caf_one_to_one(workers, one); }, Cpu::kSkip);
    })->Apply(whole_run);
  }
  benchmark::RegisterBenchmark("w3_loaded/workers:2/mailroom", [=](benchmark::State& s) {
    mb::BackgroundLoad load;
    run_workload(
        s, 4 * per, [&] { mb::mailroom_many_to_one(2, 4, per); }, Cpu::kSkip);
  })->Apply(whole_run);
  benchmark::RegisterBenchmark("w3_loaded/workers:2/caf", [=](benchmark::State& s) {
    mb::BackgroundLoad load;
    run_workload(
        s, 4 * per, [&] { mb::caf_many_to_one(2, 4, per); }, Cpu::kSkip);
  })->Apply(whole_run);
  benchmark::RegisterBenchmark("w3_four_to_one/workers:2/mailroom", [=](benchmark::State& s) {
    run_workload(s, 4 * per, [&] { mb::mailroom_many_to_one(2, 4, per); });
  })->Apply(whole_run);
  benchmark::RegisterBenchmark("w3_four_to_one/workers:2/caf", [=](benchmark::State& s) {
    run_workload(s, 4 * per, [&] { mb::caf_many_to_one(2, 4, per); });
  })->Apply(whole_run);
}

// One enqueue + one dequeue per iteration on a mailbox holding `backlog`.
void mailbox_pair(benchmark::State& state, const std::string& kind, std::size_t backlog) {
  auto box = mb::make_mailbox(kind, backlog + 1024);
  for (std::size_t i = 0; i < backlog; ++i) box->enqueue(mb::small_envelope(static_cast<int>(i)));
  int n = 0;
  for (auto _ : state) {
    box->enqueue(mb::small_envelope(n++));
    benchmark::DoNotOptimize(box->dequeue());
  }
  state.SetItemsProcessed(state.iterations());
}

// A drop-lowest-priority mailbox filled to its capacity `backlog`; per
// iteration one enqueue that sheds, one dequeue, one enqueue that fills it again.
void shed_at_capacity(benchmark::State& state, const std::string& kind, std::size_t backlog) {
  auto box = mb::make_mailbox(kind, backlog);
  int n = 0;
  for (; static_cast<std::size_t>(n) < backlog; ++n) box->enqueue(mb::small_envelope(n));
  for (auto _ : state) {
    box->enqueue(mb::small_envelope(n++));  // full: sheds the least important
    benchmark::DoNotOptimize(box->dequeue());
    box->enqueue(mb::small_envelope(n++));  // full again
  }
  if (box->dropped_count() != static_cast<std::uint64_t>(state.iterations())) {
    state.SkipWithError("the mailbox did not shed once per iteration");
  }
  state.SetItemsProcessed(state.iterations());
}

void register_mailbox_ops() {
  for (const char* kind :
       {"unbounded", "bounded-drop-head", "bounded-drop-new", "bounded-reject", "priority"}) {
    std::string k = kind;
    benchmark::RegisterBenchmark(("w4_mailbox_pair/" + k).c_str(),
                                 [k](benchmark::State& s) { mailbox_pair(s, k, 0); });
  }
  for (std::size_t backlog : {std::size_t{1'000}, std::size_t{100'000}, scaled(1'000'000)}) {
    benchmark::RegisterBenchmark(
        ("w4_priority_backlog/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) { mailbox_pair(s, "priority", backlog); });
    benchmark::RegisterBenchmark(
        ("w4_priority_random_backlog/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) { mailbox_pair(s, "priority-random", backlog); });
    benchmark::RegisterBenchmark(
        ("w4_priority_random_shedding_backlog/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) { mailbox_pair(s, "priority-random-shedding", backlog); });
    benchmark::RegisterBenchmark(
        ("w4_priority_shedding_backlog/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) { mailbox_pair(s, "priority-shedding", backlog); });
    benchmark::RegisterBenchmark(
        ("w4_priority_shed_at_capacity/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) { shed_at_capacity(s, "priority-shedding", backlog); });
    benchmark::RegisterBenchmark(
        ("w4_priority_random_shed_at_capacity/" + std::to_string(backlog)).c_str(),
        [backlog](benchmark::State& s) {
          shed_at_capacity(s, "priority-random-shedding", backlog);
        });
  }
  benchmark::RegisterBenchmark("memory/bytes_per_queued_envelope", [](benchmark::State& s) {
    for (auto _ : s) s.counters["bytes"] = mb::bytes_per_queued_envelope(100'000);
  })->Iterations(1);
}

void register_dead_letters() {
  for (const char* store : {"memory", "persistent"}) {
    std::string st = store;
    benchmark::RegisterBenchmark(("w5_capture/" + st).c_str(), [st](benchmark::State& s) {
      mb::CaptureBench bench(st);
      for (auto _ : s) bench.capture_one();
      s.SetItemsProcessed(s.iterations());
    });
  }
  // The durability bound's cost: the same persistent capture with no sync
  // in the run (sync-within one minute), against the default 50 ms above.
  benchmark::RegisterBenchmark("w5_capture/persistent-unsynced", [](benchmark::State& s) {
    mb::CaptureBench bench("persistent", 60'000);
    for (auto _ : s) bench.capture_one();
    s.SetItemsProcessed(s.iterations());
  });
  benchmark::RegisterBenchmark("w5_list_recipient/100000", [](benchmark::State& s) {
    mb::ListBench bench(100'000);
    for (auto _ : s) benchmark::DoNotOptimize(bench.list_recipient());
  })->Unit(benchmark::kMillisecond);
  // deadLetters.list with a cursor, 1,000 a page through 100,000 letters: the
  // read since d793050 against the one before it, in one run.
  for (bool continued : {true, false}) {
    benchmark::RegisterBenchmark(
        continued ? "w5_page_walk/100000/continued" : "w5_page_walk/100000/copy_older",
        [continued](benchmark::State& s) {
          mb::ListBench bench(100'000);
          for (auto _ : s) {
            if (bench.page_walk(1'000, continued) != 100'000) s.SkipWithError("lost letters");
          }
        })
        ->Unit(benchmark::kMillisecond);
  }
  // The same walk after the clock went back halfway (the queue out of time
  // order): positions still start each read by binary search.
  benchmark::RegisterBenchmark("w5_page_walk/100000/continued_clock_back", [](benchmark::State& s) {
    mb::ListBench bench(100'000, true);
    for (auto _ : s) {
      if (bench.page_walk(1'000, true) != 100'000) s.SkipWithError("lost letters");
    }
  })->Unit(benchmark::kMillisecond);
}

}  // namespace

// Workload 1 alone, then the process's peak resident set.
int print_peak_rss(const std::string& runtime) {
  const std::size_t one = scaled(1'000'000);
  if (runtime == "mailroom") {
    mb::mailroom_one_to_one(1, one);
  } else if (runtime == "caf") {
    mb::caf_one_to_one(1, one);
  } else {
    std::fprintf(stderr, "--peak-rss must be mailroom or caf, not '%s'\n", runtime.c_str());
    return 2;
  }
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  std::printf("{\"runtime\": \"%s\", \"messages\": %zu, \"peak_rss_kb\": %ld}\n", runtime.c_str(),
              one, usage.ru_maxrss);
  return 0;
}

int main(int argc, char** argv) {
  std::vector<char*> args;
  std::string peak_rss;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strncmp(argv[i], "--peak-rss=", 11) == 0)
      peak_rss = argv[i] + 11;
    else
      args.push_back(argv[i]);
  }
  if (!peak_rss.empty()) return print_peak_rss(peak_rss);
  int count = static_cast<int>(args.size());
  register_workloads();
  register_mailbox_ops();
  register_dead_letters();
  benchmark::Initialize(&count, args.data());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
