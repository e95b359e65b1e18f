#!/usr/bin/env bash
# npm run demo: build the wasm module, then serve the live demo with Vite and
# print its URL. Ctrl-C stops the server.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -f scripts/build.sh ]]; then
  bash scripts/build.sh
elif [[ -f wasm/dist/mailroom_core.mjs ]]; then
  echo "demo: scripts/build.sh not found; using the existing wasm/dist build" >&2
else
  echo "demo: no wasm build: scripts/build.sh and wasm/dist/ are both missing" >&2
  exit 1
fi
port=${MAILROOM_DEMO_PORT:-5173}
echo
echo "Mailroom demo:      http://localhost:${port}/"
echo "Panel playground:   http://localhost:${port}/playground.html   (fake system, no wasm)"
echo
exec npx vite --config web/vite.config.ts --port "$port" --strictPort --host 127.0.0.1
