#!/usr/bin/env bash
# npm run demo:native [-- --port N] [-- --allow-writes]
# Builds the live native example (examples/live_system.cpp) and
# the panel for native processes (web/dist-attach), then runs the example with
# its DevTools server; it prints the panel's URL with this start's token.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler_cache.sh
jobs=${MAILROOM_JOBS:-2}
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native -j "$jobs" --target live_system >/dev/null
npx vite build --config web/vite.attach.config.ts --logLevel error
exec build/native/examples/live_system --panel-dir web/dist-attach "$@"
