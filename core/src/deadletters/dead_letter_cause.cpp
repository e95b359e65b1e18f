// String forms of DeadLetterCause; the only place these strings live in C++.
#include "mailroom/dead_letter_cause.hpp"

namespace mailroom {

std::string_view to_string(DeadLetterCause cause) noexcept {
  switch (cause) {
    case DeadLetterCause::kStopped:
      return "stopped";
    case DeadLetterCause::kNoRecipient:
      return "no-recipient";
    case DeadLetterCause::kUnhandled:
      return "unhandled";
    case DeadLetterCause::kDropped:
      return "dropped";
    case DeadLetterCause::kRestarted:
      return "restarted";
    case DeadLetterCause::kPublished:
      return "published";
    case DeadLetterCause::kUnknown:
      return "unknown";
  }
  return "unknown";
}

std::optional<DeadLetterCause> dead_letter_cause_from_string(std::string_view text) noexcept {
  if (text == "stopped") return DeadLetterCause::kStopped;
  if (text == "no-recipient") return DeadLetterCause::kNoRecipient;
  if (text == "unhandled") return DeadLetterCause::kUnhandled;
  if (text == "dropped") return DeadLetterCause::kDropped;
  if (text == "restarted") return DeadLetterCause::kRestarted;
  if (text == "published") return DeadLetterCause::kPublished;
  if (text == "unknown") return DeadLetterCause::kUnknown;
  return std::nullopt;
}

}  // namespace mailroom
