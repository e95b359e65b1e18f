#!/usr/bin/env bash
# Build and run the native suite under a sanitizer, in its own build folder.
#   scripts/sanitize.sh asan                     AddressSanitizer + UndefinedBehaviorSanitizer, whole suite
#   scripts/sanitize.sh tsan [regex [targets]]   ThreadSanitizer; optional ctest -R filter and the
#                                                test executables to build (default: all of them)
set -euo pipefail
cd "$(dirname "$0")/.."
lane=${1:?usage: scripts/sanitize.sh asan|tsan [ctest-regex [targets]]}
filter=${2:-}
targets=${3:-}
jobs=${MAILROOM_JOBS:-2}
case "$lane" in asan|tsan) ;; *) echo "unknown lane '$lane' (asan|tsan)"; exit 2 ;; esac
dir=build/$lane
# The examples have no tests: not built here (stage 80 builds and runs them).
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DMAILROOM_SANITIZE="$lane" -DMAILROOM_EXAMPLES=OFF >/dev/null
if [[ -n "$targets" ]]; then
  # shellcheck disable=SC2086  # a space-separated list of targets
  cmake --build "$dir" -j "$jobs" --target $targets
else
  cmake --build "$dir" -j "$jobs"
fi
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1
args=(--test-dir "$dir" -j "$jobs" --output-on-failure --no-tests=error)
[[ -n "$filter" ]] && args+=(-R "$filter")
CTEST_NO_TESTS_ACTION=error ctest "${args[@]}"
