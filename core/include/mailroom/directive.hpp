// What a supervisor does with a failing child.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class Directive {
  kResume,    // "resume": keep the instance and its state, take the next message
  kRestart,   // "restart": new instance from the factory; the mailbox is kept
  kStop,      // "stop": stop the child for good
  kEscalate,  // "escalate": the supervisor fails with the same error
};

std::string_view to_string(Directive directive) noexcept;
std::optional<Directive> directive_from_string(std::string_view text) noexcept;

}  // namespace mailroom
