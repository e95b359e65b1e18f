// What a full bounded mailbox does with one more user message.
#pragma once

#include <optional>
#include <string_view>

namespace mailroom {

enum class OverflowPolicy {
  kDropHead,            // "drop-head": evict the oldest queued message, keep the arrival
  kDropNew,             // "drop-new": discard the arrival
  kReject,              // "reject": throw MailboxFullError at the tell call site
  kDropLowestPriority,  // "drop-lowest-priority": PriorityMailbox only
};

std::string_view to_string(OverflowPolicy policy) noexcept;
std::optional<OverflowPolicy> overflow_policy_from_string(std::string_view text) noexcept;

}  // namespace mailroom
