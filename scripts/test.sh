#!/usr/bin/env bash
# The whole test suite: every stage in scripts/test.d, in name order.
# MAILROOM_STAGES="20 40" runs only the stages whose names start with those.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/compiler_cache.sh
export MAILROOM_ROOT=$PWD
failed=()
for stage in scripts/test.d/*.sh; do
  name=$(basename "$stage" .sh)
  if [[ -n "${MAILROOM_STAGES:-}" ]]; then
    keep=0; for s in $MAILROOM_STAGES; do [[ $name == "$s"* ]] && keep=1; done
    ((keep)) || continue
  fi
  echo "=== test stage: $name"
  start=$(date +%s)
  if bash "$stage"; then
    echo "=== test stage $name passed ($(( $(date +%s) - start ))s)"
  else
    echo "=== test stage $name FAILED"
    failed+=("$name")
  fi
done
if ((${#failed[@]})); then echo "failed stages: ${failed[*]}"; exit 1; fi
echo "all test stages passed"
