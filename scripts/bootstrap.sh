#!/usr/bin/env bash
# Installs only what is missing, so it is quick when nothing is.
# Debian packages via apt-get (as root, or through sudo), then npm packages.
#   --bench  also installs the benchmark peer (CAF) — never needed by npm test.
set -euo pipefail
cd "$(dirname "$0")/.."

want=(cmake g++ pkg-config clang-format libgtest-dev libbenchmark-dev emscripten chromium nlohmann-json3-dev
  libboost1.81-dev prometheus  # Beast for the DevTools server; promtool checks /metrics
  libsqlite3-dev libpq-dev postgresql-15  # the database journals (database/, stage 65)
  locales)  # localedef + de_DE sources: the locale-free number test compiles a German locale
[[ "${1:-}" == "--bench" ]] && want+=(libcaf-dev)

missing=()
for pkg in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if ((${#missing[@]})); then
  echo "bootstrap: installing ${missing[*]}"
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci only when the lockfile changed since the last install.
stamp=node_modules/.mailroom-lock-stamp
if [[ ! -f "$stamp" ]] || ! cmp -s package-lock.json "$stamp"; then
  echo "bootstrap: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi
