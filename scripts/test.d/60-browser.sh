#!/usr/bin/env bash
# End to end in headless Chromium: build the static demo (web/dist), then run
# the panel tests (playground, fake system), the live-demo tests (wasm) and
# the browser journal tests (IndexedDB, served from the repository, ~20 s) and
# payload fidelity through IndexedDB and a reload (~7 s).
# Screenshots go to test-results/ (gitignored).
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
# MAILROOM_SKIP_WASM_BUILD=1 reuses wasm/dist as it is (e.g. while a build runs elsewhere).
if [[ -f scripts/build.sh && -z "${MAILROOM_SKIP_WASM_BUILD:-}" ]]; then
  bash scripts/build.sh
elif [[ ! -f wasm/dist/mailroom_core.mjs ]]; then
  echo "60-browser: no wasm build (wasm/dist) and no scripts/build.sh" >&2
  exit 1
fi
npx vite build --config web/vite.config.ts --logLevel error
mkdir -p test-results
node --test --test-concurrency=1 tests/browser/panel.test.mjs tests/browser/steadiness.test.mjs tests/browser/demo.test.mjs \
  tests/browser/journal.test.mjs tests/browser/payload.test.mjs tests/browser/bulk.test.mjs \
  tests/browser/durability.test.mjs
