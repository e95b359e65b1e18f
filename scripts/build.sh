#!/usr/bin/env bash
# Builds the WebAssembly module (wasm/dist/mailroom_core.mjs + .wasm) that
# wasm/js/index.js loads. Configured exactly like test stage 30-wasm, in the
# same folder, so `npm test` builds the core for wasm only once.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler_cache.sh
jobs=${MAILROOM_JOBS:-2}
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-experimental-fetch" >/dev/null
cmake --build build/wasm -j "$jobs" --target mailroom_wasm
