#include "mailroom/supervisor_strategy.hpp"

#include <string>

#include "mailroom/actor_initialization_error.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/option_number.hpp"

namespace mailroom {

// As the seed framework: at most 10 restarts a minute, so an actor that fails
// on every start cannot restart forever.
SupervisorStrategy::SupervisorStrategy()
    : decider_(default_decider()), max_retries_(kDefaultMaxRetries), within_ms_(kDefaultWithinMs) {}

SupervisorStrategy::SupervisorStrategy(Decider decider, std::optional<int> max_retries,
                                       std::int64_t within_ms)
    : decider_(decider ? std::move(decider) : default_decider()),
      max_retries_(max_retries),
      within_ms_(within_ms) {
  if (max_retries_ && *max_retries_ < 0) {
    throw OptionsError("SupervisorStrategy", "maxRetries", std::to_string(*max_retries_),
                       "must be >= 0 (no value: unlimited)");
  }
  if (within_ms_ < 0) {
    throw OptionsError("SupervisorStrategy", "withinTimeRangeMs", std::to_string(within_ms_),
                       "must be >= 0 (0: no window)");
  }
}

SupervisorStrategy SupervisorStrategy::one_for_one(Decider decider, double max_retries,
                                                   double within_ms, std::string_view family) {
  const double retries = validate_whole_number(max_retries, family, "maxRetries", -1, 2147483647.0,
                                               "a whole number >= -1 (-1: unlimited)");
  const double window =
      validate_whole_number(within_ms, family, "withinTimeRangeMs", 0, 9007199254740991.0,
                            "a whole number of milliseconds >= 0 (0: no window)");
  return SupervisorStrategy(
      std::move(decider),
      retries < 0 ? std::nullopt : std::optional<int>(static_cast<int>(retries)),
      static_cast<std::int64_t>(window));
}

Decider SupervisorStrategy::default_decider() {
  return [](std::exception_ptr error) {
    try {
      if (error) std::rethrow_exception(error);
    } catch (const ActorKilledError&) {
      return Directive::kStop;
    } catch (const ActorInitializationError&) {
      // Restarting into the same failing constructor would loop forever.
      return Directive::kStop;
    } catch (...) {
      return Directive::kRestart;
    }
    return Directive::kRestart;
  };
}

SupervisorStrategy SupervisorStrategy::stopping() {
  return SupervisorStrategy([](std::exception_ptr) { return Directive::kStop; });
}
SupervisorStrategy SupervisorStrategy::resuming() {
  return SupervisorStrategy([](std::exception_ptr) { return Directive::kResume; });
}
SupervisorStrategy SupervisorStrategy::escalating() {
  return SupervisorStrategy([](std::exception_ptr) { return Directive::kEscalate; });
}

Directive SupervisorStrategy::decide(std::exception_ptr error) const noexcept {
  try {
    return decider_(error);
  } catch (...) {
    return Directive::kEscalate;
  }
}

}  // namespace mailroom
