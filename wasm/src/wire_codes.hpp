// The integer codes the binding and its JS wrapper exchange that are not core
// vocabulary: which framework message a JS value stands for, and which queue
// of a mailbox a JS Mailbox call means. Defined here only; JS reads the codes
// from core.closedSets() (wasm/js/closed_sets.js), index = code.
#pragma once

#include <string_view>

namespace mailroom::wasm {

// What a JS value sent as a message is for the core.
enum class SpecialMessage : int { kNone = 0, kPoisonPill = 1, kKill = 2, kTerminated = 3 };

// The queue of a mailbox a JS Mailbox member reads or writes.
enum class MailboxQueue : int { kUser = 0, kSignal = 1, kSystem = 2 };

// "none", "poison-pill", "kill", "terminated"; "unknown" past the last.
constexpr std::string_view to_string(SpecialMessage code) noexcept {
  switch (code) {
    case SpecialMessage::kNone:
      return "none";
    case SpecialMessage::kPoisonPill:
      return "poison-pill";
    case SpecialMessage::kKill:
      return "kill";
    case SpecialMessage::kTerminated:
      return "terminated";
  }
  return "unknown";
}

// "user", "signal", "system"; "unknown" past the last.
constexpr std::string_view to_string(MailboxQueue queue) noexcept {
  switch (queue) {
    case MailboxQueue::kUser:
      return "user";
    case MailboxQueue::kSignal:
      return "signal";
    case MailboxQueue::kSystem:
      return "system";
  }
  return "unknown";
}

}  // namespace mailroom::wasm
