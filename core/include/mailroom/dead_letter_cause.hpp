// Why a letter died: recorded with each dead letter and each queue entry, so
// users can see, filter and count the reasons. A closed set with its strings
// in one place (dead_letter_cause.cpp), as every enum of the spec.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class DeadLetterCause {
  kStopped,      // "stopped": told to (or still queued for) an actor that stopped
  kNoRecipient,  // "no-recipient": the path or selection resolved to no actor
  kUnhandled,    // "unhandled": the behaviour declared it unhandled
  kDropped,      // "dropped": shed by a bounded mailbox with deadLetterDrops (see drop_reason)
  kRestarted,    // "restarted": stashed by an instance that was replaced by a restart
  kPublished,    // "published": sent to the dead letters by hand (publish / deadLetters ref)
  kUnknown,      // "unknown": read back from a journal written before causes were recorded
};

std::string_view to_string(DeadLetterCause cause) noexcept;
std::optional<DeadLetterCause> dead_letter_cause_from_string(std::string_view text) noexcept;

}  // namespace mailroom
