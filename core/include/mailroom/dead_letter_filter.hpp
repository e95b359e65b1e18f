// Narrows DeadLetterQueue::list. Every field is optional; unset means "any".
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mailroom {

struct DeadLetterFilter {
  // A path or its subtree, on a segment boundary ("/user/orders" matches
  // "/user/orders/a", not "/user/orders-archive"). Full paths
  // ("mailroom://orders/user/orders") are accepted.
  std::optional<std::string> recipient;
  std::optional<std::int64_t> since_ms;  // timestamp_ms >= since_ms
  std::optional<std::int64_t> until_ms;  // timestamp_ms <= until_ms
  std::optional<std::size_t> limit;      // at most this many, newest first
};

}  // namespace mailroom
