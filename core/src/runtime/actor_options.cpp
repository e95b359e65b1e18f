#include "mailroom/actor_options.hpp"

#include <string>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/detail/capacity.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/option_number.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {

namespace {
constexpr const char* kFamily = "ActorOptions";
}

ActorOptions& ActorOptions::with_mailbox_capacity(double capacity) & {
  capacity_ = validate_capacity(capacity, kFamily, "mailboxCapacity");
  return *this;
}

ActorOptions& ActorOptions::with_mailbox_overflow(OverflowPolicy policy) & {
  if (policy == OverflowPolicy::kDropLowestPriority) {
    throw OptionsError(kFamily, "mailboxOverflow", std::string(to_string(policy)),
                       "the default FIFO mailbox has no priorities (use a PriorityMailbox)");
  }
  overflow_ = policy;
  return *this;
}

ActorOptions& ActorOptions::with_mailbox_overflow(std::string_view policy) & {
  auto parsed = overflow_policy_from_string(policy);
  if (!parsed) {
    throw OptionsError(kFamily, "mailboxOverflow", std::string(policy),
                       "unknown overflow policy (drop-head, drop-new or reject)");
  }
  return with_mailbox_overflow(*parsed);
}

ActorOptions& ActorOptions::with_mailbox(MailboxFactory factory) & {
  if (!factory) throw OptionsError(kFamily, "mailbox", "<empty>", "the mailbox factory is empty");
  factory_ = std::move(factory);
  return *this;
}

ActorOptions& ActorOptions::with_throughput(double messages) & {
  throughput_ = static_cast<int>(validate_whole_number(messages, kFamily, "throughput", 1,
                                                       2147483647.0, "a whole number >= 1"));
  return *this;
}

ActorOptions& ActorOptions::with_supervisor_strategy(SupervisorStrategy strategy) & {
  strategy_ = std::move(strategy);
  return *this;
}

void ActorOptions::validate() const {
  if (factory_ && capacity_) {
    throw OptionsError(kFamily, "mailboxCapacity", std::to_string(*capacity_),
                       "cannot be combined with a mailbox factory (bound the factory's mailbox)");
  }
  if (overflow_ && !capacity_) {
    throw OptionsError(kFamily, "mailboxOverflow", std::string(to_string(*overflow_)),
                       factory_ ? "cannot be combined with a mailbox factory"
                                : "needs a mailboxCapacity (an unbounded mailbox never overflows)");
  }
}

std::shared_ptr<MessageQueue> ActorOptions::make_mailbox() const {
  validate();
  if (factory_) {
    std::shared_ptr<MessageQueue> mailbox = factory_();
    if (!mailbox)
      throw OptionsError(kFamily, "mailbox", "null", "the mailbox factory returned null");
    if (mailbox->owner() != nullptr) {
      throw OptionsError(kFamily, "mailbox", "<shared instance>",
                         "the mailbox factory returned an instance another actor already owns");
    }
    return mailbox;
  }
  if (capacity_) {
    return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                .with_capacity(static_cast<double>(*capacity_))
                                                .with_overflow(*effective_mailbox_overflow()));
  }
  return std::make_shared<UnboundedMailbox>();
}

}  // namespace mailroom
