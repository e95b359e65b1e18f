// JS supervision strategies as core SupervisorStrategy values: the decider is
// the JS function (called through hooks.decide with the child's error as the
// JS value), the restart budget the strategy's maxRetries / withinTimeRangeMs.
#pragma once

#include <emscripten/val.h>

#include "mailroom/logger.hpp"
#include "mailroom/supervisor_strategy.hpp"

namespace mailroom::wasm {

// From { decider, maxRetries, withinTimeRangeMs } (wasm/js/supervision.js
// strategyRecord). A decider that throws, or answers something that is not a
// Directive, is reported on `log` and counts as escalate (the core's rule for a
// throwing decider).
SupervisorStrategy strategy_from_js(const emscripten::val& record, Logger log);

}  // namespace mailroom::wasm
