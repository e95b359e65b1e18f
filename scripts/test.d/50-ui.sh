#!/usr/bin/env bash
# The DevTools panel: type-check, then vitest store/reducer and component tests.
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
# One type-check: the demo page too once the wasm API's declarations exist.
if [[ -f wasm/js/index.d.ts ]]; then npx tsc -p web/tsconfig.json; else npx tsc -p devtools-ui/tsconfig.json; fi
npx vitest run --config tests/ui/vitest.config.ts
