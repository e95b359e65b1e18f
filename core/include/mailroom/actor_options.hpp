// ActorOptions: per-actor mailbox and scheduling settings. A value type;
// each setter validates its own value at once (OptionsError, family
// "ActorOptions"); combinations are checked when the actor is spawned.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mailroom/message_queue.hpp"
#include "mailroom/overflow_policy.hpp"
#include "mailroom/supervisor_strategy.hpp"

namespace mailroom {

// Called once per actor (cell); a restart keeps the mailbox it returned.
using MailboxFactory = std::function<std::shared_ptr<MessageQueue>()>;

class ActorOptions {
 public:
  static constexpr int kDefaultThroughput = 10;

  static ActorOptions create() { return ActorOptions(); }

  // Bounds the default FIFO. 0, negative, non-integer, NaN, inf → OptionsError
  // (field "mailboxCapacity").
  ActorOptions& with_mailbox_capacity(double capacity) &;
  ActorOptions&& with_mailbox_capacity(double capacity) && {
    return std::move(with_mailbox_capacity(capacity));
  }
  // Needs a capacity (checked at spawn); drop-head when a capacity is set and
  // no policy given. drop-lowest-priority is refused: the default FIFO has no
  // priorities (field "mailboxOverflow").
  ActorOptions& with_mailbox_overflow(OverflowPolicy policy) &;
  ActorOptions&& with_mailbox_overflow(OverflowPolicy policy) && {
    return std::move(with_mailbox_overflow(policy));
  }
  ActorOptions& with_mailbox_overflow(std::string_view policy) &;
  ActorOptions&& with_mailbox_overflow(std::string_view policy) && {
    return std::move(with_mailbox_overflow(policy));
  }
  // Replaces the mailbox entirely; combining it with a capacity is an error.
  ActorOptions& with_mailbox(MailboxFactory factory) &;
  ActorOptions&& with_mailbox(MailboxFactory factory) && {
    return std::move(with_mailbox(std::move(factory)));
  }
  // Messages per turn before the actor yields its thread: a whole number in
  // [1, 2^31-1] (field "throughput"). A double, so 1.5 and NaN are refused
  // as given rather than truncated on the way in.
  ActorOptions& with_throughput(double messages) &;
  ActorOptions&& with_throughput(double messages) && {
    return std::move(with_throughput(messages));
  }
  // How the parent handles *this* actor's failures, overriding the parent's
  // Actor::supervisor_strategy() for this child only.
  ActorOptions& with_supervisor_strategy(SupervisorStrategy strategy) &;
  ActorOptions&& with_supervisor_strategy(SupervisorStrategy strategy) && {
    return std::move(with_supervisor_strategy(std::move(strategy)));
  }

  // The class inspect() and the metric labels name from the moment the actor
  // exists, before its instance is built (a drop before the first turn is
  // still labelled). spawn<A>() gives A's demangled type unless a name was set
  // here; a factory spawn has none unless set. Once the instance exists, its
  // Actor::class_name() is the name. Not validated: any text, "" = no hint.
  ActorOptions& with_class_name(std::string name) & {
    class_name_ = std::move(name);
    return *this;
  }
  ActorOptions&& with_class_name(std::string name) && {
    return std::move(with_class_name(std::move(name)));
  }

  const std::optional<std::size_t>& mailbox_capacity() const noexcept { return capacity_; }
  const std::optional<OverflowPolicy>& mailbox_overflow() const noexcept { return overflow_; }
  // The policy the default bounded FIFO uses: the one given, else drop-head;
  // none without a capacity.
  std::optional<OverflowPolicy> effective_mailbox_overflow() const noexcept {
    if (!capacity_) return std::nullopt;
    return overflow_.value_or(OverflowPolicy::kDropHead);
  }
  const MailboxFactory& mailbox_factory() const noexcept { return factory_; }
  int throughput() const noexcept { return throughput_; }
  const std::optional<SupervisorStrategy>& supervisor_strategy() const noexcept {
    return strategy_;
  }
  const std::string& class_name() const noexcept { return class_name_; }

  // The combination rules, applied at spawn: overflow without capacity,
  // factory + capacity, factory + overflow → OptionsError.
  void validate() const;
  // Builds this actor's mailbox (calls the factory, or makes the default
  // FIFO, bounded when a capacity is set). A null or already-claimed mailbox
  // from a factory → OptionsError (field "mailbox") — claiming is the
  // caller's job, it knows the owner.
  std::shared_ptr<MessageQueue> make_mailbox() const;

 private:
  std::optional<std::size_t> capacity_;
  std::optional<OverflowPolicy> overflow_;
  MailboxFactory factory_;
  int throughput_ = kDefaultThroughput;
  std::optional<SupervisorStrategy> strategy_;
  std::string class_name_;
};

}  // namespace mailroom
