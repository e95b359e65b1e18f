#!/usr/bin/env bash
# ThreadSanitizer over the tests that exercise threads (the whole suite takes
# too long under TSan on 2 cores): thread pool, concurrent captures and
# metrics, concurrent producers into the mailboxes and the lock-free queue, conservation under load,
# producers racing terminate/await/destroy and a metrics scrape racing the
# system's destruction (ShutdownRace).
# Only the program holding those tests is built (mailroom_thread_tests: its
# units are listed in tests/native/CMakeLists.txt).
set -euo pipefail
bash scripts/sanitize.sh tsan 'ThreadPool|Concurren|Conservation|ShutdownRace' mailroom_thread_tests
