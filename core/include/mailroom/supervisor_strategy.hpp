// SupervisorStrategy: how a parent treats its failing children. A value type:
// a decider plus an optional restart budget (max restarts within a window;
// exhausting it turns a restart into a stop).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <string_view>

#include "mailroom/directive.hpp"

namespace mailroom {

using Decider = std::function<Directive(std::exception_ptr)>;

class SupervisorStrategy {
 public:
  static constexpr int kDefaultMaxRetries = 10;
  static constexpr std::int64_t kDefaultWithinMs = 60000;

  // Restart for any exception, stop for ActorKilledError and
  // ActorInitializationError; at most 10 restarts per minute, then stop.
  SupervisorStrategy();
  // max_retries >= 0 when given, within_ms >= 0; else
  // OptionsError{"SupervisorStrategy", field, value}.
  SupervisorStrategy(Decider decider, std::optional<int> max_retries = std::nullopt,
                     std::int64_t within_ms = 0);
  // The seed framework's spelling, as the JS API takes it: max_retries a whole
  // number >= -1 (-1: unlimited), within_ms a whole number of milliseconds >= 0
  // (0: no window). OptionsError{family, "maxRetries" | "withinTimeRangeMs", value}.
  static SupervisorStrategy one_for_one(Decider decider, double max_retries = -1,
                                        double within_ms = 0,
                                        std::string_view family = "OneForOneStrategy");

  static Decider default_decider();
  static SupervisorStrategy restarting() { return SupervisorStrategy(); }
  static SupervisorStrategy stopping();
  static SupervisorStrategy resuming();
  static SupervisorStrategy escalating();

  // Never throws: a decider that throws counts as kEscalate.
  Directive decide(std::exception_ptr error) const noexcept;
  // No value = unlimited restarts (-1 in the seed's spelling).
  const std::optional<int>& max_retries() const noexcept { return max_retries_; }
  // 0 = the restart count never resets.
  std::int64_t within_ms() const noexcept { return within_ms_; }

 private:
  Decider decider_;
  std::optional<int> max_retries_;
  std::int64_t within_ms_ = 0;
};

}  // namespace mailroom
