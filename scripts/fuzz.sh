#!/usr/bin/env bash
# Build and run one libFuzzer target over its committed seed corpus.
#   scripts/fuzz.sh <hocon|journal|json> <seconds>
# Binaries go to build/fuzz/; new corpus entries to build/fuzz/corpus-<target>/
# (the committed seeds in fuzz/corpus/<target>/ are only read); crashes to
# build/fuzz/artifacts-<target>/.
set -euo pipefail

target="${1:-}"
seconds="${2:-60}"
case "$target" in
  hocon | journal | json) ;;
  *)
    echo "usage: $0 <hocon|journal|json> <seconds>" >&2
    exit 2
    ;;
esac
if ! [[ "$seconds" =~ ^[0-9]+$ ]]; then
  echo "seconds must be a whole number, not '$seconds'" >&2
  exit 2
fi

root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/build/fuzz"
mkdir -p "$out/inc" "$out/corpus-$target" "$out/artifacts-$target"
# nlohmann-json alone, as the CMake build does it.
[ -e "$out/inc/nlohmann" ] || ln -s /usr/include/nlohmann "$out/inc/nlohmann"

binary="$out/${target}_fuzz"
echo "building $binary" >&2
clang++-14 -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/core/include" -I"$out/inc" \
  "$root/fuzz/${target}_fuzz.cpp" "$root"/core/src/persistence/*.cpp "$root/core/src/mailbox/errors.cpp" \
  -o "$binary"

# -timeout: one input taking over 10 s is a hang; -rss_limit_mb: runaway allocation.
exec "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$out/artifacts-$target/" "$out/corpus-$target" "$root/fuzz/corpus/$target"
