#include "js_supervision.hpp"

#include <optional>
#include <string>
#include <utility>

#include "error_records.hpp"
#include "js_hooks.hpp"
#include "mailroom/directive.hpp"

namespace mailroom::wasm {

using emscripten::val;

SupervisorStrategy strategy_from_js(const val& record, Logger log) {
  const double max_retries = record["maxRetries"].as<double>();
  const double within_ms = record["withinTimeRangeMs"].as<double>();
  Decider decider = [js = record["decider"], log = std::move(log)](std::exception_ptr error) {
    val result = hooks()["decide"](js, failure_to_js(error));
    if (threw(result)) {
      log.error("the supervisor strategy's decider threw (escalating): " +
                std::string(JsError(result["thrown"]).what()));
      return Directive::kEscalate;
    }
    if (result.hasOwnProperty("invalid")) {
      log.error("the supervisor strategy's decider answered " +
                result["invalid"].as<std::string>() + ", not a Directive (escalating)");
      return Directive::kEscalate;
    }
    return directive_from_string(result["directive"].as<std::string>())
        .value_or(Directive::kEscalate);
  };
  return SupervisorStrategy(
      std::move(decider),
      max_retries < 0 ? std::nullopt : std::optional<int>(static_cast<int>(max_retries)),
      static_cast<std::int64_t>(within_ms));
}

}  // namespace mailroom::wasm
