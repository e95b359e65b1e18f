#!/usr/bin/env bash
# The same core built with em++ 3.1.6 (libc++ 13): the core libraries, the
# native GoogleTest suite run under Node, and (once present) the ES module.
set -euo pipefail
jobs=${MAILROOM_JOBS:-2}
emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-experimental-fetch" >/dev/null
cmake --build build/wasm -j "$jobs"
CTEST_NO_TESTS_ACTION=error ctest --test-dir build/wasm -j "$jobs" --output-on-failure --no-tests=error
