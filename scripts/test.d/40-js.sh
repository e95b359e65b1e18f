#!/usr/bin/env bash
# The JS API in Node: build the wasm module, run the node:test suites in
# tests/js/, and type-check a typed example against wasm/js/index.d.ts.
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
bash scripts/build.sh
node --test tests/js/
npx --no-install tsc --noEmit -p tests/js/types
