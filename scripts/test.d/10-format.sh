#!/usr/bin/env bash
# clang-format in dry-run over every C++ file we own; any difference fails.
set -euo pipefail
files=$(git ls-files --cached --others --exclude-standard -- '*.cpp' '*.hpp' '*.h' | grep -v '^node_modules/' || true)
[[ -z "$files" ]] && exit 0
clang-format --dry-run -Werror $files
