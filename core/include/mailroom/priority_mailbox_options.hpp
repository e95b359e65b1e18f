// PriorityMailboxOptions: a value-type builder for PriorityMailbox. Setters
// only record; resolve() (called by the PriorityMailbox constructor) validates
// and throws OptionsError{"PriorityMailbox", field, value}.
#pragma once

#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "mailroom/drop_reason.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/overflow_policy.hpp"

namespace mailroom {

// Lower runs first. Runs on the sender's thread, outside the mailbox lock; may
// throw or return NaN (the message is then ranked kUnrankablePriority).
using PriorityFunction = std::function<double(const Envelope&)>;
// Told why a message could not be ranked (the exception, or an
// std::invalid_argument for NaN). An exception it throws reaches the sender.
using PriorityErrorObserver = std::function<void(std::exception_ptr, const Envelope&)>;

class PriorityMailboxOptions {
 public:
  struct Resolved {
    PriorityFunction priority_for;
    std::optional<std::size_t> capacity;
    std::optional<OverflowPolicy> overflow;  // set exactly when capacity is
    bool dead_letter_drops;
    DropObserver on_drop;                     // may be empty
    PriorityErrorObserver on_priority_error;  // may be empty
  };

  static PriorityMailboxOptions create() { return PriorityMailboxOptions(); }

  // Required (field "priorityFor").
  PriorityMailboxOptions& with_priority_for(PriorityFunction priority_for) & {
    priority_for_ = std::move(priority_for);
    return *this;
  }
  PriorityMailboxOptions&& with_priority_for(PriorityFunction priority_for) && {
    return std::move(with_priority_for(std::move(priority_for)));
  }
  // Optional bound; a positive whole number (field "capacity").
  PriorityMailboxOptions& with_capacity(double capacity) & {
    capacity_ = capacity;
    return *this;
  }
  PriorityMailboxOptions&& with_capacity(double capacity) && {
    return std::move(with_capacity(capacity));
  }
  // drop-lowest-priority, drop-new or reject (default reject); needs a
  // capacity; drop-head is refused (field "overflow").
  PriorityMailboxOptions& with_overflow(OverflowPolicy policy) & {
    overflow_ = std::string(to_string(policy));
    return *this;
  }
  PriorityMailboxOptions&& with_overflow(OverflowPolicy policy) && {
    return std::move(with_overflow(policy));
  }
  PriorityMailboxOptions& with_overflow(std::string_view policy) & {
    overflow_ = std::string(policy);
    return *this;
  }
  PriorityMailboxOptions&& with_overflow(std::string_view policy) && {
    return std::move(with_overflow(policy));
  }
  PriorityMailboxOptions& with_dead_letter_drops(bool enabled) & {
    dead_letter_drops_ = enabled;
    return *this;
  }
  PriorityMailboxOptions&& with_dead_letter_drops(bool enabled) && {
    return std::move(with_dead_letter_drops(enabled));
  }
  PriorityMailboxOptions& with_on_drop(DropObserver observer) & {
    on_drop_ = std::move(observer);
    return *this;
  }
  PriorityMailboxOptions&& with_on_drop(DropObserver observer) && {
    return std::move(with_on_drop(std::move(observer)));
  }
  PriorityMailboxOptions& with_on_priority_error(PriorityErrorObserver observer) & {
    on_priority_error_ = std::move(observer);
    return *this;
  }
  PriorityMailboxOptions&& with_on_priority_error(PriorityErrorObserver observer) && {
    return std::move(with_on_priority_error(std::move(observer)));
  }

  const PriorityFunction& priority_for() const noexcept { return priority_for_; }
  const std::optional<double>& capacity() const noexcept { return capacity_; }
  const std::optional<std::string>& overflow() const noexcept { return overflow_; }
  bool dead_letter_drops() const noexcept { return dead_letter_drops_; }
  const DropObserver& on_drop() const noexcept { return on_drop_; }
  const PriorityErrorObserver& on_priority_error() const noexcept { return on_priority_error_; }

  // Validates: priorityFor missing; capacity invalid; overflow unknown,
  // drop-head, or given without a capacity → OptionsError.
  Resolved resolve() const;

 private:
  PriorityFunction priority_for_;
  std::optional<double> capacity_;
  std::optional<std::string> overflow_;
  bool dead_letter_drops_ = false;
  DropObserver on_drop_;
  PriorityErrorObserver on_priority_error_;
};

}  // namespace mailroom
