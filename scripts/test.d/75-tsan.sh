#!/usr/bin/env bash
# ThreadSanitizer over the tests that exercise threads (the whole suite takes
# too long under TSan on 2 cores): thread pool, concurrent tells, conservation.
set -euo pipefail
bash scripts/sanitize.sh tsan 'ThreadPool|Concurren|Conservation|MultiProducer|Threads'
