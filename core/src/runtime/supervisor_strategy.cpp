#include "mailroom/supervisor_strategy.hpp"

#include "mailroom/actor_initialization_error.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

// As the seed framework: at most 10 restarts a minute, so an actor that fails
// on every start cannot restart forever.
SupervisorStrategy::SupervisorStrategy()
    : decider_(default_decider()), max_retries_(kDefaultMaxRetries), within_ms_(kDefaultWithinMs) {}

SupervisorStrategy::SupervisorStrategy(Decider decider, std::optional<int> max_retries,
                                       std::int64_t within_ms)
    : decider_(decider ? std::move(decider) : default_decider()),
      max_retries_(max_retries),
      within_ms_(within_ms) {}

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
