#include "mailroom/priority_mailbox_options.hpp"

#include "mailroom/detail/capacity.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

namespace {
constexpr std::string_view kFamily = "PriorityMailbox";

[[noreturn]] void fail(std::string field, std::string value, const std::string& why) {
  throw OptionsError(std::string(kFamily), std::move(field), std::move(value), why);
}
}  // namespace

PriorityMailboxOptions::Resolved PriorityMailboxOptions::resolve() const {
  if (!priority_for_) fail("priorityFor", "(unset)", "a priority function is required");

  std::optional<std::size_t> capacity;
  if (capacity_) capacity = validate_capacity(*capacity_, kFamily, "capacity");

  std::optional<OverflowPolicy> policy;
  if (overflow_) {
    const auto parsed = overflow_policy_from_string(*overflow_);
    if (!parsed) {
      fail("overflow", *overflow_,
           "unknown overflow policy (drop-lowest-priority, drop-new or reject)");
    }
    // The head is what priorityFor called most important; shedding it would
    // defeat the mailbox. The least important is what drop-lowest-priority sheds.
    if (*parsed == OverflowPolicy::kDropHead) {
      fail("overflow", *overflow_, "drop-head is not offered here: use drop-lowest-priority");
    }
    // An unbounded mailbox never overflows: a policy alone would be a no-op
    // that looks like configuration.
    if (!capacity) fail("overflow", *overflow_, "an overflow policy needs a capacity");
    policy = *parsed;
  } else if (capacity) {
    policy = OverflowPolicy::kReject;  // a bound says how much, not what may be lost
  }
  return Resolved{priority_for_,      capacity, policy,
                  dead_letter_drops_, on_drop_, on_priority_error_};
}

}  // namespace mailroom
