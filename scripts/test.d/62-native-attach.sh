#!/usr/bin/env bash
# The panel attached to a native process: build the live example with the
# DevTools server (Beast: ~30 s for its one translation unit) and the attach
# page, then drive it in headless Chromium.
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
jobs=${MAILROOM_JOBS:-2}
if [[ ! -f /usr/include/boost/beast.hpp ]]; then
  echo "62-native-attach: Boost.Beast missing (libboost1.81-dev): run scripts/bootstrap.sh" >&2
  exit 1
fi
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native -j "$jobs" --target live_system
npx vite build --config web/vite.attach.config.ts --logLevel error
mkdir -p test-results
node --test --test-concurrency=1 tests/browser/native.test.mjs
