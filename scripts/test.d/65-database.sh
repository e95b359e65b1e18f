#!/usr/bin/env bash
# The database journals (database/): the shared layer, SQLite against real
# files and PostgreSQL against a throw-away server each test binary starts
# (initdb + pg_ctl on a loopback port, stopped after). The server binaries
# must be there (bootstrap installs postgresql-15): missing is a failure here.
# Then two processes on one SQLite file, and on one PostgreSQL database of a
# throw-away server (pg_cluster_tool: the same start-up code), in headless
# Chromium (the panel of each shows the other's letters; ~10 s for both):
# tests/browser/shared_store.test.mjs.
set -euo pipefail
cd "${MAILROOM_ROOT:-$(dirname "$0")/../..}"
jobs=${MAILROOM_JOBS:-2}
pg_bin=${MAILROOM_PG_BIN:-/usr/lib/postgresql/15/bin}
for need in /usr/include/sqlite3.h /usr/include/postgresql/libpq-fe.h "$pg_bin/initdb" "$pg_bin/pg_ctl"; do
  if [[ ! -e $need ]]; then
    echo "65-database: $need is missing (libsqlite3-dev, libpq-dev, postgresql-15): run scripts/bootstrap.sh" >&2
    exit 1
  fi
done
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets=(database_journal_test sqlite_journal_test postgres_journal_test devtools_streams_test mailroom-dlq)
# Two processes sharing a store over their DevTools servers (needs Beast, as stage 62 does).
cross=0
if [[ -f /usr/include/boost/beast.hpp ]]; then
  targets+=(cross_process_test shared_store_node pg_cluster_tool)
  cross=1
else
  echo "65-database: Boost.Beast missing: the cross-process tests are not built" >&2
fi
cmake --build build/native -j "$jobs" --target "${targets[@]}"
export MAILROOM_REQUIRE_POSTGRES=1 MAILROOM_PG_BIN=$pg_bin
CTEST_NO_TESTS_ACTION=error ctest --test-dir build/native -j "$jobs" -L database --output-on-failure \
  --no-tests=error
if [[ $cross == 1 ]]; then
  npx vite build --config web/vite.attach.config.ts --logLevel error
  mkdir -p test-results
  node --test --test-concurrency=1 tests/browser/shared_store.test.mjs
fi
