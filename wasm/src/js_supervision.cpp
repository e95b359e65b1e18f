#include "js_supervision.hpp"

#include <string>
#include <utility>

#include "error_records.hpp"
#include "js_hooks.hpp"
#include "mailroom/directive.hpp"
#include "options_from_js.hpp"

namespace mailroom::wasm {

using emscripten::val;

SupervisorStrategy strategy_from_js(const val& record, Logger log) {
  const std::string family = record["family"].isString() ? record["family"].as<std::string>()
                                                         : std::string("OneForOneStrategy");
  const double max_retries = number_field(record, family, "maxRetries").value_or(-1);
  const double within_ms = number_field(record, family, "withinTimeRangeMs").value_or(0);
  option_field(record, family, "decider");  // its type, before it is ever called
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
  // The core validates the budget (whole numbers, ranges): OptionsError{family, field, value}.
  return SupervisorStrategy::one_for_one(std::move(decider), max_retries, within_ms, family);
}

}  // namespace mailroom::wasm
