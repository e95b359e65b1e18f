#!/usr/bin/env bash
# The native suite under AddressSanitizer + UBSan (issue 7).
set -euo pipefail
bash scripts/sanitize.sh asan
