// to_string / from_string of the runtime's closed sets.
#include "mailroom/directive.hpp"
#include "mailroom/log_level.hpp"
#include "mailroom/shutdown_phase.hpp"

namespace mailroom {

std::string_view to_string(Directive directive) noexcept {
  switch (directive) {
    case Directive::kResume:
      return "resume";
    case Directive::kRestart:
      return "restart";
    case Directive::kStop:
      return "stop";
    case Directive::kEscalate:
      return "escalate";
  }
  return "unknown";
}

std::optional<Directive> directive_from_string(std::string_view text) noexcept {
  if (text == "resume") return Directive::kResume;
  if (text == "restart") return Directive::kRestart;
  if (text == "stop") return Directive::kStop;
  if (text == "escalate") return Directive::kEscalate;
  return std::nullopt;
}

std::string_view to_string(LogLevel level) noexcept {
  switch (level) {
    case LogLevel::kDebug:
      return "debug";
    case LogLevel::kInfo:
      return "info";
    case LogLevel::kWarn:
      return "warn";
    case LogLevel::kError:
      return "error";
    case LogLevel::kOff:
      return "off";
  }
  return "unknown";
}

std::optional<LogLevel> log_level_from_string(std::string_view text) noexcept {
  if (text == "debug") return LogLevel::kDebug;
  if (text == "info") return LogLevel::kInfo;
  if (text == "warn") return LogLevel::kWarn;
  if (text == "error") return LogLevel::kError;
  if (text == "off") return LogLevel::kOff;
  return std::nullopt;
}

std::string_view to_string(ShutdownPhase phase) noexcept {
  switch (phase) {
    case ShutdownPhase::kBeforeServiceUnbind:
      return "before-service-unbind";
    case ShutdownPhase::kServiceUnbind:
      return "service-unbind";
    case ShutdownPhase::kServiceRequestsDone:
      return "service-requests-done";
    case ShutdownPhase::kServiceStop:
      return "service-stop";
    case ShutdownPhase::kBeforeActorSystemTerminate:
      return "before-actor-system-terminate";
    case ShutdownPhase::kActorSystemTerminate:
      return "actor-system-terminate";
    case ShutdownPhase::kAfterActorSystemTerminate:
      return "after-actor-system-terminate";
  }
  return "unknown";
}

std::optional<ShutdownPhase> shutdown_phase_from_string(std::string_view text) noexcept {
  for (ShutdownPhase phase : kShutdownPhases) {
    if (to_string(phase) == text) return phase;
  }
  return std::nullopt;
}

}  // namespace mailroom
