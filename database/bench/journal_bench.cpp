// The database journals under the dead-letter queue, against the file journal
// in the same process (alternating: --benchmark_enable_random_interleaving):
//   BM_Capture/<store>        one capture (the journal queues the record)
//   BM_CaptureStored/<store>  1000 captures + flush(): stored, per letter
//   BM_ListStream/<store>     list_stream(stream, {recipient}) over 100k
//                             entries (100 recipients, 1000 letters match)
//   BM_PageWalk/<store>/<n>   every page of n letters through list_stream,
//                             1000 a page (limit 1001, each continued below
//                             the last letter's sequence): deadLetters.list
//                             walking another process's stream by cursor
// The PostgreSQL rows use $MAILROOM_BENCH_PG_URL, or a throw-away server
// this binary starts (tests/database/support/pg_cluster.hpp).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "mailroom/postgres_journal.hpp"
#include "mailroom/sqlite_journal.hpp"
#include "support/pg_cluster.hpp"

namespace {

using namespace mailroom;

enum Store { kFile = 0, kSqlite = 1, kPostgres = 2 };
const char* kStoreNames[] = {"file", "sqlite", "postgres"};

std::string scratch() {
  static const std::string dir = [] {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "mailroom-bench-XXXXXX").string();
    return std::string(::mkdtemp(pattern.data()));
  }();
  return dir;
}

std::string pg_url() {
  static std::unique_ptr<testing::PgCluster> cluster;
  const char* env = std::getenv("MAILROOM_BENCH_PG_URL");
  if (env && *env) return env;
  if (!cluster) cluster = std::make_unique<testing::PgCluster>();
  return cluster->url();
}

int fresh = 0;

// The capture loop outruns any commit: let the whole run queue.
DatabaseJournalOptions unbounded() {
  DatabaseJournalOptions o;
  o.max_backlog = std::size_t{1} << 26;
  return o;
}

// A new, empty journal of that store (its own file, folder or stream).
std::shared_ptr<Journal> journal_of(Store store, std::string* stream_suffix) {
  *stream_suffix = std::to_string(++fresh);
  switch (store) {
    case kFile:
      return std::make_shared<FileJournal>(scratch() + "/files-" + *stream_suffix);
    case kSqlite:
      return open_sqlite_journal(scratch() + "/bench-" + *stream_suffix + ".db", unbounded());
    case kPostgres:
      return open_postgres_journal(pg_url(), unbounded());
  }
  return nullptr;
}

struct Queue {
  explicit Queue(Store store, std::size_t max_entries = 200000) {
    codecs.add<std::string>(
        "string", [](const std::string& s) { return nlohmann::json(s); },
        [](const nlohmann::json& j) { return j.get<std::string>(); });
    std::string suffix;
    journal = journal_of(store, &suffix);
    system = "bench" + suffix;
    DeadLetterQueue::Dependencies deps;
    deps.journal = journal;
    deps.codecs = &codecs;
    queue =
        std::make_unique<DeadLetterQueue>(DeadLetterQueueOptions::create()
                                              .with_store("persistent")
                                              .with_max_entries(static_cast<double>(max_entries))
                                              .resolve(nullptr, system),
                                          deps);
  }
  void capture(std::size_t i) {
    queue->capture(DeadLetter{Message(std::string("order payload ") + std::to_string(i)),
                              {},
                              {},
                              "/user/r" + std::to_string(i % 100) + "/worker",
                              "/user/sender",
                              0});
  }
  PayloadCodecRegistry codecs;
  std::shared_ptr<Journal> journal;
  std::string system;
  std::unique_ptr<DeadLetterQueue> queue;
};

void BM_Capture(benchmark::State& state) {
  Queue q(static_cast<Store>(state.range(0)), 1 << 20);
  std::size_t i = 0;
  for (auto _ : state) q.capture(i++);
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
  state.SetLabel(kStoreNames[state.range(0)]);
  q.queue->flush();
}

void BM_CaptureStored(benchmark::State& state) {
  Queue q(static_cast<Store>(state.range(0)), 1 << 20);
  std::size_t i = 0;
  for (auto _ : state) {
    for (int k = 0; k < 1000; ++k) q.capture(i++);
    q.queue->flush();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(i));
  state.SetLabel(kStoreNames[state.range(0)]);
}

void BM_ListStream(benchmark::State& state) {
  Queue q(static_cast<Store>(state.range(0)));
  for (std::size_t i = 0; i < 100000; ++i) q.capture(i);
  q.queue->flush();
  const std::string stream = DeadLetterQueueSettings::default_persistence_id(q.system);
  DeadLetterFilter filter;
  filter.recipient = "/user/r42";
  std::size_t found = 0;
  for (auto _ : state) {
    auto letters = q.queue->list_stream(stream, filter);
    found = letters.size();
    benchmark::DoNotOptimize(letters);
  }
  if (found != 1000) state.SkipWithError("the filter did not find the 1000 letters");
  state.SetLabel(kStoreNames[state.range(0)]);
}

void BM_PageWalk(benchmark::State& state) {
  const auto letters = static_cast<std::size_t>(state.range(1));
  Queue q(static_cast<Store>(state.range(0)), 2 * letters);
  for (std::size_t i = 0; i < letters; ++i) q.capture(i);
  q.queue->flush();
  const std::string stream = DeadLetterQueueSettings::default_persistence_id(q.system);
  std::size_t walked = 0;
  for (auto _ : state) {
    walked = 0;
    DeadLetterFilter filter;
    filter.limit = 1001;
    while (true) {
      const auto page = q.queue->list_stream(stream, filter);
      const std::size_t kept = std::min<std::size_t>(page.size(), 1000);
      walked += kept;
      if (page.size() <= 1000) break;
      filter.before = page[kept - 1].sequence;
    }
  }
  if (walked != letters) state.SkipWithError("the walk did not visit every letter once");
  state.SetLabel(kStoreNames[state.range(0)]);
}

BENCHMARK(BM_Capture)->DenseRange(kFile, kPostgres)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CaptureStored)->DenseRange(kFile, kPostgres)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ListStream)->DenseRange(kFile, kPostgres)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PageWalk)
    ->ArgsProduct({{kFile, kSqlite, kPostgres}, {100000}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
