// The one rule for a mailbox capacity, shared by every front door
// (BoundedMailboxOptions, PriorityMailboxOptions, ActorOptions, the JS API), so
// "what counts as a capacity" cannot drift between them.
#pragma once

#include <cstddef>
#include <string_view>

namespace mailroom {

// Largest capacity accepted: kMaxOptionCount (what a 32-bit size_t holds) on
// every target, so a capacity wasm32 cannot hold is refused everywhere alike.
std::size_t max_capacity() noexcept;

// Returns `value` as a count of messages. Throws OptionsError{family, field,
// text of value} for NaN, ±infinity, 0, negatives, non-integers and values
// above max_capacity().
std::size_t validate_capacity(double value, std::string_view family, std::string_view field);

}  // namespace mailroom
