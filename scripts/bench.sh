#!/usr/bin/env bash
# Benchmarks: native (Google Benchmark, Mailroom vs CAF in one process, random
# interleaving of repetitions, medians) and wasm in Node (ratio to native).
# Writes bench/results/latest.json and prints a table.   --quick: < 60 s.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=""; reps=5
for a in "$@"; do [[ "$a" == "--quick" ]] && { quick="--quick"; reps=3; }; done
mkdir -p build/bench-out bench/results
cmake -S . -B build/bench -DCMAKE_BUILD_TYPE=Release -DMAILROOM_BENCH=ON -DMAILROOM_TESTS=OFF >/dev/null
cmake --build build/bench -j "${MAILROOM_JOBS:-2}" --target mailroom_bench
build/bench/bench/mailroom_bench $quick --benchmark_repetitions=$reps \
  --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true \
  --benchmark_out=build/bench-out/native.json --benchmark_out_format=json >/dev/null
if [[ -f wasm/dist/mailroom_core.mjs && -f bench/wasm/run.mjs ]]; then
  node bench/wasm/run.mjs $quick > build/bench-out/wasm.json
fi
node bench/report.mjs build/bench-out/native.json build/bench-out/wasm.json > bench/results/latest.json.tmp
mv bench/results/latest.json.tmp bench/results/latest.json
node bench/report.mjs --table bench/results/latest.json
