// The phases of coordinated shutdown, in the order they run.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace mailroom {

enum class ShutdownPhase {
  kBeforeServiceUnbind,         // "before-service-unbind"
  kServiceUnbind,               // "service-unbind"
  kServiceRequestsDone,         // "service-requests-done"
  kServiceStop,                 // "service-stop"
  kBeforeActorSystemTerminate,  // "before-actor-system-terminate"
  kActorSystemTerminate,        // "actor-system-terminate": its tasks, then /user, then /system
  kAfterActorSystemTerminate,   // "after-actor-system-terminate": the tree is down
};

inline constexpr std::array<ShutdownPhase, 7> kShutdownPhases = {
    ShutdownPhase::kBeforeServiceUnbind,        ShutdownPhase::kServiceUnbind,
    ShutdownPhase::kServiceRequestsDone,        ShutdownPhase::kServiceStop,
    ShutdownPhase::kBeforeActorSystemTerminate, ShutdownPhase::kActorSystemTerminate,
    ShutdownPhase::kAfterActorSystemTerminate,
};

std::string_view to_string(ShutdownPhase phase) noexcept;
std::optional<ShutdownPhase> shutdown_phase_from_string(std::string_view text) noexcept;

}  // namespace mailroom
