#include "mailroom/drop_reason.hpp"
#include "mailroom/overflow_policy.hpp"

namespace mailroom {

std::string_view to_string(OverflowPolicy policy) noexcept {
  switch (policy) {
    case OverflowPolicy::kDropHead:
      return "drop-head";
    case OverflowPolicy::kDropNew:
      return "drop-new";
    case OverflowPolicy::kReject:
      return "reject";
    case OverflowPolicy::kDropLowestPriority:
      return "drop-lowest-priority";
  }
  return "unknown";
}

std::optional<OverflowPolicy> overflow_policy_from_string(std::string_view text) noexcept {
  if (text == "drop-head") return OverflowPolicy::kDropHead;
  if (text == "drop-new") return OverflowPolicy::kDropNew;
  if (text == "reject") return OverflowPolicy::kReject;
  if (text == "drop-lowest-priority") return OverflowPolicy::kDropLowestPriority;
  return std::nullopt;
}

std::string_view to_string(DropReason reason) noexcept {
  switch (reason) {
    case DropReason::kDropHead:
      return "drop-head";
    case DropReason::kDropNew:
      return "drop-new";
  }
  return "unknown";
}

std::optional<DropReason> drop_reason_from_string(std::string_view text) noexcept {
  if (text == "drop-head") return DropReason::kDropHead;
  if (text == "drop-new") return DropReason::kDropNew;
  return std::nullopt;
}

}  // namespace mailroom
