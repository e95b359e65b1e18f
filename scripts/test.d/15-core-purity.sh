#!/usr/bin/env bash
# core/ must never depend on Emscripten: the binding layer lives in wasm/.
set -euo pipefail
if grep -rnE '#\s*include\s*[<"]emscripten' core/; then
  echo "core/ includes Emscripten headers (above); move that code to wasm/"; exit 1
fi
