#!/usr/bin/env bash
# Native build + GoogleTest under ctest. An empty suite is an error.
set -euo pipefail
jobs=${MAILROOM_JOBS:-2}
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native -j "$jobs"
# The database journals' tests (label "database") run in stage 65.
CTEST_NO_TESTS_ACTION=error ctest --test-dir build/native -j "$jobs" --output-on-failure --no-tests=error \
  -LE database
