#!/usr/bin/env bash
# The npm package as a JS user gets it: `npm pack` (its prepack builds the wasm
# module, incremental after stage 40, and the DevTools library), the tarball
# installed offline into a fresh project (it has no dependencies), then
# tests/package/npm/smoke.mjs runs there, consumer.ts type-checks against
# the shipped .d.ts (skipLibCheck off: the types need no other package) under
# NodeNext and Bundler resolution, and a Vite page
# (tests/package/npm/page) built there mounts mailroom/devtools in Chromium.
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
repo=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

npm pack --silent --pack-destination "$tmp" >"$tmp/pack.log"
tarball=$(ls "$tmp"/mailroom-*.tgz)
tar -tzf "$tarball" >"$tmp/contents.txt"
files=$(wc -l <"$tmp/contents.txt")
bytes=$(stat -c %s "$tarball")
echo "tarball: $(basename "$tarball"), $files files, $bytes bytes"

# Nothing from the source tree beyond the built entry points.
if grep -E '\.(cpp|hpp|tsx)$|/src/|^package/(tests|web|scripts|core|bench)/' "$tmp/contents.txt"; then
  echo "the tarball ships source files (above)"; exit 1
fi
for f in wasm/js/index.js wasm/js/index.d.ts wasm/dist/mailroom_core.mjs wasm/dist/mailroom_core.wasm \
         devtools-ui/dist/mailroom-devtools.js devtools-ui/dist/mailroom-devtools.css \
         devtools-ui/dist/types/index.d.ts; do
  grep -qx "package/$f" "$tmp/contents.txt" || { echo "the tarball lacks $f"; exit 1; }
done

mkdir "$tmp/app"
cp -r tests/package/npm/smoke.mjs tests/package/npm/consumer.ts tests/package/npm/tsconfig.json \
  tests/package/npm/page "$tmp/app/"
cd "$tmp/app"
echo '{ "name": "mailroom-consumer", "private": true, "type": "module" }' >package.json
npm install --offline --no-audit --no-fund --silent "$tarball"
[[ ! -e node_modules/.bin ]] || [[ -z "$(ls node_modules/.bin)" ]]
node smoke.mjs
tsc=$repo/node_modules/typescript/bin/tsc
node "$tsc" -p tsconfig.json
node "$tsc" -p tsconfig.json --module ESNext --moduleResolution Bundler
echo "types: consumer.ts checks under NodeNext and Bundler resolution"

# A Vite page importing both entry points, built from the fresh project (the
# repo's vite binary, no config), then mounted in headless Chromium.
node "$repo/node_modules/vite/bin/vite.js" build page --outDir "$tmp/page-dist" --emptyOutDir --logLevel error
ls "$tmp"/page-dist/assets/*.wasm >/dev/null
cd "$repo"
node tests/package/npm/mount.mjs "$tmp/page-dist"
