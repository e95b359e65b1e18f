#!/usr/bin/env bash
# Builds `mailroom/devtools` for the npm package into devtools-ui/dist/:
# mailroom-devtools.js (+ map), mailroom-devtools.css, types/*.d.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf devtools-ui/dist
npx --no-install vite build -c devtools-ui/vite.lib.config.ts --logLevel warn
npx --no-install tsc -p devtools-ui/tsconfig.lib.json
# Preact and @preact/signals are bundled, so their types must not be needed either.
node scripts/dts-extensions.mjs devtools-ui/dist/types \
  --shim @preact/signals-core=devtools-ui/types-shims/signals.d.ts \
  --shim @preact/signals=devtools-ui/types-shims/signals.d.ts
# The stylesheet mountDevtools injects (PANEL_CSS in src/styles.ts), also as a
# file for hosts that link it.
node scripts/panel-css.mjs devtools-ui/dist/mailroom-devtools.css
