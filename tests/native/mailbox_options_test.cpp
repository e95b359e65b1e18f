#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/detail/capacity.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/priority_mailbox.hpp"

namespace mailroom {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The OptionsError `make` throws, as "family/field/value" (or "no error").
template <class Make>
std::string options_error(Make&& make) {
  try {
    make();
  } catch (const OptionsError& error) {
    return error.family() + "/" + error.field() + "/" + error.value();
  }
  return "no error";
}

std::string bounded_error(BoundedMailboxOptions options) {
  return options_error([&] { BoundedMailbox box(std::move(options)); });
}

std::string priority_error(PriorityMailboxOptions options) {
  return options_error([&] { PriorityMailbox box(std::move(options)); });
}

PriorityMailboxOptions ranked() {
  return PriorityMailboxOptions::create().with_priority_for([](const Envelope&) { return 0.0; });
}

// validate_capacity returns the count for a positive whole number.
TEST(ValidateCapacity, AcceptsPositiveWholeNumbers) {
  EXPECT_EQ(validate_capacity(1, "F", "f"), 1u);
  EXPECT_EQ(validate_capacity(10000, "F", "f"), 10000u);
  EXPECT_EQ(validate_capacity(static_cast<double>(max_capacity()), "F", "f"), max_capacity());
}

// Every kind of bad capacity is an OptionsError naming the caller's family, field and the value.
TEST(ValidateCapacity, RejectsEveryBadValueWithFamilyFieldAndValue) {
  auto error = [](double value) {
    return options_error([&] { validate_capacity(value, "ActorOptions", "mailboxCapacity"); });
  };
  EXPECT_EQ(error(0), "ActorOptions/mailboxCapacity/0");
  EXPECT_EQ(error(-1), "ActorOptions/mailboxCapacity/-1");
  EXPECT_EQ(error(2.5), "ActorOptions/mailboxCapacity/2.5");
  EXPECT_EQ(error(kNaN), "ActorOptions/mailboxCapacity/NaN");
  EXPECT_EQ(error(kInf), "ActorOptions/mailboxCapacity/Infinity");
  EXPECT_EQ(error(-kInf), "ActorOptions/mailboxCapacity/-Infinity");
  EXPECT_EQ(error(1e300), "ActorOptions/mailboxCapacity/1e+300");
}

// A BoundedMailbox without a capacity is refused rather than silently unbounded.
TEST(BoundedMailboxOptions, MissingCapacityIsAnOptionsError) {
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_overflow("drop-head")),
            "BoundedMailbox/capacity/(unset)");
}

// Non-positive, non-integer, NaN and infinite capacities are refused, naming the value.
TEST(BoundedMailboxOptions, BadCapacityIsAnOptionsError) {
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(0)),
            "BoundedMailbox/capacity/0");
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(-3)),
            "BoundedMailbox/capacity/-3");
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(1.5)),
            "BoundedMailbox/capacity/1.5");
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(kNaN)),
            "BoundedMailbox/capacity/NaN");
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(kInf)),
            "BoundedMailbox/capacity/Infinity");
}

// An unknown policy, and the priority-only drop-lowest-priority, are refused by name.
TEST(BoundedMailboxOptions, UnknownOrPriorityOnlyPolicyIsAnOptionsError) {
  EXPECT_EQ(
      bounded_error(BoundedMailboxOptions::create().with_capacity(3).with_overflow("drop-oldest")),
      "BoundedMailbox/overflow/drop-oldest");
  EXPECT_EQ(bounded_error(BoundedMailboxOptions::create().with_capacity(3).with_overflow(
                OverflowPolicy::kDropLowestPriority)),
            "BoundedMailbox/overflow/drop-lowest-priority");
}

// The enum and string forms of a policy resolve alike; the default is reject.
TEST(BoundedMailboxOptions, PolicyByNameOrEnumResolvesAlike) {
  EXPECT_EQ(
      BoundedMailboxOptions::create().with_capacity(2).with_overflow("drop-new").resolve().overflow,
      OverflowPolicy::kDropNew);
  EXPECT_EQ(BoundedMailboxOptions::create()
                .with_capacity(2)
                .with_overflow(OverflowPolicy::kDropHead)
                .resolve()
                .overflow,
            OverflowPolicy::kDropHead);
  const auto defaults = BoundedMailboxOptions::create().with_capacity(2).resolve();
  EXPECT_EQ(defaults.capacity, 2u);
  EXPECT_EQ(defaults.overflow, OverflowPolicy::kReject);
  EXPECT_FALSE(defaults.dead_letter_drops);
}

// The builder is a value: a copy taken before a change does not see it.
TEST(BoundedMailboxOptions, IsAValueType) {
  auto base = BoundedMailboxOptions::create().with_capacity(2);
  auto changed = base;
  changed.with_capacity(5).with_dead_letter_drops(true);
  EXPECT_EQ(base.capacity(), std::optional<double>(2));
  EXPECT_FALSE(base.dead_letter_drops());
  EXPECT_EQ(changed.capacity(), std::optional<double>(5));
}

// A PriorityMailbox needs a priority function.
TEST(PriorityMailboxOptions, MissingPriorityForIsAnOptionsError) {
  EXPECT_EQ(priority_error(PriorityMailboxOptions::create()),
            "PriorityMailbox/priorityFor/(unset)");
  EXPECT_EQ(priority_error(PriorityMailboxOptions::create().with_capacity(3)),
            "PriorityMailbox/priorityFor/(unset)");
}

// drop-head is not offered on a priority mailbox, even with a capacity.
TEST(PriorityMailboxOptions, DropHeadIsRefused) {
  EXPECT_EQ(priority_error(ranked().with_capacity(3).with_overflow("drop-head")),
            "PriorityMailbox/overflow/drop-head");
}

// A policy without a capacity would never act, so it is refused.
TEST(PriorityMailboxOptions, PolicyWithoutCapacityIsRefused) {
  EXPECT_EQ(priority_error(ranked().with_overflow(OverflowPolicy::kDropLowestPriority)),
            "PriorityMailbox/overflow/drop-lowest-priority");
}

// Bad capacities and unknown policies are refused by name.
TEST(PriorityMailboxOptions, BadCapacityOrUnknownPolicyIsAnOptionsError) {
  EXPECT_EQ(priority_error(ranked().with_capacity(0)), "PriorityMailbox/capacity/0");
  EXPECT_EQ(priority_error(ranked().with_capacity(kNaN)), "PriorityMailbox/capacity/NaN");
  EXPECT_EQ(priority_error(ranked().with_capacity(2.25)), "PriorityMailbox/capacity/2.25");
  EXPECT_EQ(priority_error(ranked().with_capacity(3).with_overflow("shed-oldest")),
            "PriorityMailbox/overflow/shed-oldest");
}

// Unbounded by default; reject once a capacity is given without a policy.
TEST(PriorityMailboxOptions, DefaultsFollowTheCapacity) {
  const auto unbounded = ranked().resolve();
  EXPECT_FALSE(unbounded.capacity.has_value());
  EXPECT_FALSE(unbounded.overflow.has_value());
  const auto capped = ranked().with_capacity(4).resolve();
  EXPECT_EQ(capped.capacity, std::optional<std::size_t>(4));
  EXPECT_EQ(capped.overflow, std::optional<OverflowPolicy>(OverflowPolicy::kReject));
  EXPECT_EQ(ranked().with_capacity(4).with_overflow("drop-new").resolve().overflow,
            std::optional<OverflowPolicy>(OverflowPolicy::kDropNew));
}

}  // namespace
}  // namespace mailroom
