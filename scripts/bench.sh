#!/usr/bin/env bash
# Benchmarks (never part of npm test):
#  1. native, Google Benchmark: Mailroom vs CAF 0.17.6 in one process, random
#     interleaving of repetitions, medians;
#  2. the single-threaded workloads built natively and with em++ (run in Node),
#     so wasm is a ratio to native on identical code;
#  3. the JS API in Node (JS actors), when the wasm module is built;
#  4. the DevTools server's idle cost (workload 1 with with_devtools() and no
#     client vs without, alternating in one process), when Boost.Beast is there;
#  5. the dead-letter store on SQLite and PostgreSQL vs the file journal
#     (database/bench/journal_bench.cpp: capture, capture + flush, list over
#     100k), when both clients and the PostgreSQL server are there; written to
#     bench/results/database.json (docs/databases.md).
# Writes bench/results/latest.json and prints a table.   --quick: under a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler_cache.sh
quick=""; reps=5
for a in "$@"; do [[ "$a" == "--quick" ]] && { quick="--quick"; reps=3; }; done
jobs=${MAILROOM_JOBS:-2}
out=build/bench-out; mkdir -p "$out" bench/results

cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BENCH=ON -DMAILROOM_TESTS=OFF >/dev/null
cmake --build build/bench -j "$jobs" --target mailroom_bench mailroom_bench_st
idle=""
if [[ -f /usr/include/boost/beast.hpp ]]; then
  cmake --build build/bench -j "$jobs" --target mailroom_devtools_idle_bench
fi
emcmake cmake -S . -B build/bench-wasm -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BENCH=ON \
  -DMAILROOM_TESTS=OFF -DMAILROOM_WASM_MODULE=OFF >/dev/null
cmake --build build/bench-wasm -j "$jobs" --target mailroom_bench_st

echo "bench: native workloads vs CAF ..." >&2
build/bench/bench/mailroom_bench $quick --benchmark_repetitions=$reps \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  --benchmark_out="$out/native.json" --benchmark_out_format=json >/dev/null
echo "bench: peak RSS of workload 1, each runtime in a fresh process ..." >&2
{
  build/bench/bench/mailroom_bench $quick --peak-rss=mailroom
  build/bench/bench/mailroom_bench $quick --peak-rss=caf
} > "$out/rss.jsonl"
echo "bench: single-threaded, native and wasm ..." >&2
build/bench/bench/mailroom_bench_st $quick > "$out/st-native.json"
node --no-experimental-fetch build/bench-wasm/bench/mailroom_bench_st.cjs $quick > "$out/st-wasm.json"
js=""
if [[ -f wasm/dist/mailroom_core.mjs && -f bench/wasm/js_api.mjs ]]; then
  echo "bench: JS API in Node ..." >&2
  node bench/wasm/js_api.mjs $quick > "$out/js.json" && js="$out/js.json"
  echo "bench: bytes before the first actor (gzip) vs XState ..." >&2
  node bench/wasm/size.mjs > "$out/size.json" && js="$js $out/size.json"
fi
if [[ -x build/bench/devtools-server/mailroom_devtools_idle_bench ]]; then
  echo "bench: DevTools server on with no client vs off ..." >&2
  idle_args=(1000000 15); [[ -n "$quick" ]] && idle_args=(500000 5)
  build/bench/devtools-server/mailroom_devtools_idle_bench --json "${idle_args[@]}" \
    > "$out/devtools-idle.json" 2>/dev/null && idle="$out/devtools-idle.json"
fi
if [[ -f /usr/include/sqlite3.h && -f /usr/include/postgresql/libpq-fe.h && \
      -x ${MAILROOM_PG_BIN:-/usr/lib/postgresql/15/bin}/initdb ]]; then
  echo "bench: dead-letter stores on SQLite and PostgreSQL vs the file journal ..." >&2
  cmake --build build/bench -j "$jobs" --target database_journal_bench
  db_args=(--benchmark_repetitions=$reps --benchmark_min_time=0.5)
  # Quick: one repetition, short runs (the 100k-entry list setup dominates).
  [[ -n "$quick" ]] && db_args=(--benchmark_repetitions=1 --benchmark_min_time=0.05)
  build/bench/database/database_journal_bench "${db_args[@]}" \
    --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
    --benchmark_out="$out/database.json" --benchmark_out_format=json >&2
  cp "$out/database.json" bench/results/database.json
fi
MAILROOM_RSS="$out/rss.jsonl" MAILROOM_DEVTOOLS_IDLE="$idle" node bench/report.mjs "$out/native.json" "$out/st-native.json" "$out/st-wasm.json" $js \
  > bench/results/latest.json.tmp
mv bench/results/latest.json.tmp bench/results/latest.json
node bench/report.mjs --table bench/results/latest.json
