#!/usr/bin/env bash
# Builds the WebAssembly module (wasm/dist/mailroom_core.mjs + .wasm) that
# wasm/js/index.js loads. Configured exactly like test stage 30-wasm, in the
# same folder, so `npm test` builds the core for wasm only once.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${MAILROOM_JOBS:-2}
emcmake cmake -S . -B build/wasm-js-buildsh -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-experimental-fetch" >/dev/null
cmake --build build/wasm-js-buildsh -j "$jobs" --target mailroom_wasm
