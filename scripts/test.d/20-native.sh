#!/usr/bin/env bash
# Native build + GoogleTest under ctest. An empty suite is an error.
set -euo pipefail
jobs=${MAILROOM_JOBS:-2}
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native -j "$jobs"
CTEST_NO_TESTS_ACTION=error ctest --test-dir build/native -j "$jobs" --output-on-failure --no-tests=error
