#!/usr/bin/env bash
# The installed package, used from outside the tree: `cmake --install` of the
# native build (with the DevTools panel built) into a temporary prefix, then
# (1) tests/package/consumer builds and runs every example through
# find_package(mailroom CONFIG) and the installed mailroom-dlq reads the
# journal one of them wrote; a program linking the installed DevTools server
# (one option, no panel path) answers /healthz, /metrics and "/" with the
# installed panel over HTTP (tests/package/devtools_check.mjs); one linking
# the installed SQLite journal keeps its dead letters across two runs;
# (2) programs built with pkg-config (mailroom, mailroom-devtools-server);
# (3) every installed public header compiles on its own include path, and
# exactly the public headers are installed.
set -euo pipefail
jobs=${MAILROOM_JOBS:-2}
# A fresh folder per run, inside build/ so the compiler cache (CCACHE_BASEDIR)
# sees the same relative paths every time and the consumer builds hit it.
tmp=$PWD/build/package-test
rm -rf "$tmp" && mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cxx="${CMAKE_CXX_COMPILER_LAUNCHER:-} g++"

# Reuse the native build of stage 20; build only what is installed if it is missing.
cmake -S . -B build/native -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build/native -j "$jobs" --target mailroom_installable >/dev/null
# The panel the installed server serves (~2 s; the target runs Vite).
cmake --build build/native --target mailroom_devtools_panel >/dev/null
cmake --install build/native --prefix "$tmp/prefix" >/dev/null
panel=$tmp/prefix/share/mailroom/devtools-panel

# Exactly the public headers are installed: the core's (with mailroom/detail/,
# which they include), the generated version.hpp, the DevTools server's, and
# the database journals' (a backend's own header only with its library).
lib=$tmp/prefix/lib
expected=$( (cd core/include && find mailroom -name '*.hpp'; echo mailroom/version.hpp
  echo mailroom/devtools_server.hpp
  cd ../../database/include && find mailroom -name '*.hpp' \
    -not -name sqlite_journal.hpp -not -name postgres_journal.hpp
  for journal in sqlite postgres; do
    if [[ -f $lib/libmailroom_journal_$journal.a ]]; then echo "mailroom/${journal}_journal.hpp"; fi
  done) | sort)
installed=$(cd "$tmp/prefix/include" && find . -type f | sed 's|^\./||' | sort)
if [[ "$expected" != "$installed" ]]; then
  echo "installed headers differ from the public ones (< expected, > installed):"
  diff <(echo "$expected") <(echo "$installed") || true
  exit 1
fi
[[ -f $panel/index.html ]] || { echo "the DevTools panel was not installed to $panel"; exit 1; }

# (1) find_package: the consumer and the examples, copied out of the tree.
cp -r tests/package/consumer "$tmp/consumer"
cp -r examples "$tmp/examples"
cmake -S "$tmp/consumer" -B "$tmp/consumer-build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" -DMAILROOM_EXAMPLES_DIR="$tmp/examples" >/dev/null
cmake --build "$tmp/consumer-build" -j "$jobs" >/dev/null
expect() {  # expect LINE PROGRAM ARGS...: the program succeeds and prints LINE
  local want=$1 out; shift
  out=$("$@") || { echo "$1 failed (exit $?)"; exit 1; }
  grep -qxF -- "$want" <<<"$out" || { printf '%s: expected "%s" in:\n%s\n' "$1" "$want" "$out"; exit 1; }
}
bin=$tmp/consumer-build/examples
version=$(sed -n 's/^project(mailroom VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
expect "Hello, world! (from /user/greeter, Mailroom $version)" "$bin/hello_actor"
expect "drop-head: processed 3 4 5; dead letters 1 2" "$bin/bounded_mailboxes"
expect "handled: P0 outage, P1 login broken, P2 slow page, P3 typo" "$bin/priority_mailbox"
expect "run 2: 0 dead letters left" "$bin/dead_letters_replay" "$tmp/journal"
echo "find_package consumer: 4 examples built and ran"
node tests/package/devtools_check.mjs "$tmp/consumer-build/devtools_app" "$panel"
app=$tmp/consumer-build/journal_sqlite_app
expect "sqlite journal: found 0, now 2 dead letters" "$app" "$tmp/letters.db"
expect "sqlite journal: found 2, now 2 dead letters" "$app" "$tmp/letters.db"
echo "find_package consumer: the installed SQLite journal kept 2 dead letters across runs"
expect "plugin: handled 100 of 100" "$tmp/consumer-build/plugin_host"
echo "find_package consumer: the static libraries linked into a shared library (-fPIC) and ran"

# BUILD_SHARED_LIBS=ON: the same sources as shared libraries (the compiler
# cache has the objects: -fPIC either way), an example linked to them.
cmake -S . -B build/shared -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_SHARED_LIBS=ON \
  -DMAILROOM_TESTS=OFF -DMAILROOM_DATABASE_JOURNALS=OFF >/dev/null
cmake --build build/shared -j "$jobs" --target hello_actor >/dev/null
ldd build/shared/examples/hello_actor | grep -q 'libmailroom_runtime\.so' ||
  { echo "BUILD_SHARED_LIBS=ON: hello_actor is not linked to libmailroom_runtime.so"; exit 1; }
expect "Hello, world! (from /user/greeter, Mailroom $version)" build/shared/examples/hello_actor
echo "BUILD_SHARED_LIBS=ON: the core built as shared libraries; hello_actor linked to them and ran"

# The installed mailroom-dlq reads the journal the example left: 2 letters captured, both
# replayed (removed), none left.
stats=$("$tmp/prefix/bin/mailroom-dlq" stats "$tmp/journal" --system shop --json)
grep -q '"letters": 0' <<<"$stats" && grep -q '"removed": 2' <<<"$stats" ||
  { echo "mailroom-dlq stats of the example's journal: $stats"; exit 1; }
echo "mailroom-dlq (installed): $("$tmp/prefix/bin/mailroom-dlq" --version) read the example's journal"

# (2) + (3) pkg-config: one translation unit including every public header, plus hello_actor.
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs mailroom)
parts=(mailroom-devtools-server)
for journal in sqlite postgres; do
  [[ -f $lib/libmailroom_journal_$journal.a ]] && parts+=("mailroom-journal-$journal")
done
(cd "$tmp/prefix/include" && find mailroom -name '*.hpp' -not -path '*/detail/*' | sort |
  sed 's|.*|#include <&>|') >"$tmp/all_headers.cpp"
echo 'int main() { return mailroom::version().empty(); }' >>"$tmp/all_headers.cpp"
# shellcheck disable=SC2046
$cxx -std=c++20 -fsyntax-only "$tmp/all_headers.cpp" $(pkg-config --cflags mailroom "${parts[@]}")
# Compiled (-c: the compiler cache keeps it) and linked as two steps.
# shellcheck disable=SC2046
$cxx -std=c++20 -O1 -c "$tmp/examples/hello_actor.cpp" -o "$tmp/hello_pc.o" $(pkg-config --cflags mailroom)
# shellcheck disable=SC2086
g++ "$tmp/hello_pc.o" -o "$tmp/hello_pc" $flags
expect "Hello, world! (from /user/greeter, Mailroom $version)" "$tmp/hello_pc"
# The server through pkg-config, installed beside the panel (bin/): it finds
# ../share/mailroom/devtools-panel by itself.
# shellcheck disable=SC2046
$cxx -std=c++20 -O1 -c tests/package/consumer/devtools_app.cpp -o "$tmp/devtools_app_pc.o" \
  $(pkg-config --cflags mailroom-devtools-server)
# shellcheck disable=SC2046
g++ "$tmp/devtools_app_pc.o" -o "$tmp/prefix/bin/devtools_app_pc" \
  $(pkg-config --libs mailroom-devtools-server)
node tests/package/devtools_check.mjs "$tmp/prefix/bin/devtools_app_pc" "$panel"
echo "pkg-config: $(pkg-config --modversion mailroom), every public header compiles," \
  "hello_actor and the DevTools server link and run (${parts[*]})"
