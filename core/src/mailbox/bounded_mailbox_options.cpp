#include "mailroom/bounded_mailbox_options.hpp"

#include "mailroom/detail/capacity.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

namespace {
constexpr std::string_view kFamily = "BoundedMailbox";
}

BoundedMailboxOptions::Resolved BoundedMailboxOptions::resolve() const {
  if (!capacity_) {
    // Without it the "bounded" mailbox would silently be unbounded.
    throw OptionsError(std::string(kFamily), "capacity", "(unset)", "capacity is required");
  }
  const std::size_t capacity = validate_capacity(*capacity_, kFamily, "capacity");

  OverflowPolicy policy = OverflowPolicy::kReject;  // built by hand: assume nothing is expendable
  if (overflow_) {
    const auto parsed = overflow_policy_from_string(*overflow_);
    if (!parsed) {
      throw OptionsError(std::string(kFamily), "overflow", *overflow_,
                         "unknown overflow policy (drop-head, drop-new or reject)");
    }
    if (*parsed == OverflowPolicy::kDropLowestPriority) {
      throw OptionsError(std::string(kFamily), "overflow", *overflow_,
                         "drop-lowest-priority needs priorities: use a PriorityMailbox");
    }
    policy = *parsed;
  }
  return Resolved{capacity, policy, dead_letter_drops_, on_drop_};
}

}  // namespace mailroom
