#!/usr/bin/env bash
# ThreadSanitizer over the tests that exercise threads (the whole suite takes
# too long under TSan on 2 cores): thread pool, concurrent captures and
# metrics, concurrent producers into the mailboxes and the lock-free queue, conservation under load,
# producers racing terminate/await/destroy and a metrics scrape racing the
# system's destruction (ShutdownRace).
# Only the executables holding those tests are built.
set -euo pipefail
bash scripts/sanitize.sh tsan 'ThreadPool|Concurren|Conservation|ShutdownRace' \
  'thread_pool_test thread_pool_run_next_test dead_letter_queue_test metrics_registry_test mailbox_lifetime_test conservation_test mpsc_queue_test shutdown_race_test'
