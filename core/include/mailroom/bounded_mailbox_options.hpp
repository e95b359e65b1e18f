// BoundedMailboxOptions: a value-type builder for BoundedMailbox. Setters only
// record; resolve() (called by the BoundedMailbox constructor) validates and
// throws OptionsError{"BoundedMailbox", field, value} — so a builder can be
// passed around half-filled, but no mailbox is ever built from a bad one.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mailroom/drop_reason.hpp"
#include "mailroom/overflow_policy.hpp"

namespace mailroom {

class BoundedMailboxOptions {
 public:
  // What a valid set of options resolves to.
  struct Resolved {
    std::size_t capacity;
    OverflowPolicy overflow;
    bool dead_letter_drops;
    DropObserver on_drop;  // may be empty
  };

  static BoundedMailboxOptions create() { return BoundedMailboxOptions(); }

  // Required; a positive whole number (field "capacity").
  BoundedMailboxOptions& with_capacity(double capacity) & {
    capacity_ = capacity;
    return *this;
  }
  BoundedMailboxOptions&& with_capacity(double capacity) && {
    return std::move(with_capacity(capacity));
  }
  // drop-head, drop-new or reject (default reject); field "overflow".
  BoundedMailboxOptions& with_overflow(OverflowPolicy policy) & {
    overflow_ = std::string(to_string(policy));
    return *this;
  }
  BoundedMailboxOptions&& with_overflow(OverflowPolicy policy) && {
    return std::move(with_overflow(policy));
  }
  // The policy by name, as JS and HOCON give it; checked in resolve().
  BoundedMailboxOptions& with_overflow(std::string_view policy) & {
    overflow_ = std::string(policy);
    return *this;
  }
  BoundedMailboxOptions&& with_overflow(std::string_view policy) && {
    return std::move(with_overflow(policy));
  }
  // Only then does a dropped envelope become a DeadLetter (default off).
  BoundedMailboxOptions& with_dead_letter_drops(bool enabled) & {
    dead_letter_drops_ = enabled;
    return *this;
  }
  BoundedMailboxOptions&& with_dead_letter_drops(bool enabled) && {
    return std::move(with_dead_letter_drops(enabled));
  }
  // The first drop observer, ahead of any the runtime adds later.
  BoundedMailboxOptions& with_on_drop(DropObserver observer) & {
    on_drop_ = std::move(observer);
    return *this;
  }
  BoundedMailboxOptions&& with_on_drop(DropObserver observer) && {
    return std::move(with_on_drop(std::move(observer)));
  }

  const std::optional<double>& capacity() const noexcept { return capacity_; }
  const std::optional<std::string>& overflow() const noexcept { return overflow_; }
  bool dead_letter_drops() const noexcept { return dead_letter_drops_; }
  const DropObserver& on_drop() const noexcept { return on_drop_; }

  // Validates; throws OptionsError for a missing or invalid capacity and for
  // an unknown policy or drop-lowest-priority (a PriorityMailbox policy).
  Resolved resolve() const;

 private:
  std::optional<double> capacity_;
  std::optional<std::string> overflow_;
  bool dead_letter_drops_ = false;
  DropObserver on_drop_;
};

}  // namespace mailroom
