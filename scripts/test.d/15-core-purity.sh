#!/usr/bin/env bash
# core/ must never depend on Emscripten: the binding layer lives in wasm/.
# Nor on Boost (Beast): the DevTools server is the optional devtools-server/
# library, which registers itself into the core (DevtoolsExtension).
set -euo pipefail
if grep -rnE '#\s*include\s*[<"]emscripten' core/; then
  echo "core/ includes Emscripten headers (above); move that code to wasm/"; exit 1
fi
if grep -rnE '#\s*include\s*[<"]boost/' core/; then
  echo "core/ includes Boost headers (above); the network side lives in devtools-server/"; exit 1
fi
