#!/usr/bin/env bash
# What the npm tarball ships, built before `npm pack` / `npm publish` (the
# "prepack" script): the wasm ES module (wasm/dist/) and the DevTools panel
# library (devtools-ui/dist/). See "files" and "exports" in package.json.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
bash scripts/build-devtools.sh
