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
  // Continues a newest-first read after the entry at this position in the
  // list's own order (DeadLetterEntry::position for DeadLetterQueue::list,
  // JournaledDeadLetter::sequence for list_stream): only entries with a
  // smaller position, whatever their times. The read starts there instead of
  // skipping every newer entry, and the limit counts from there.
  std::optional<std::uint64_t> before;

  // A filter from numbers as a user writes them (JS numbers, so also
  // Infinity), read as a user reads them: limit Infinity (or beyond what
  // the target can count) is no limit; sinceMs Infinity matches nothing
  // newer, -Infinity no bound; untilMs the other way round; fractional
  // times round inwards. NaN, a negative or fractional limit throw
  // OptionsError{"DeadLetterFilter", field, value}.
  static DeadLetterFilter from_numbers(std::optional<std::string> recipient,
                                       std::optional<double> since_ms,
                                       std::optional<double> until_ms, std::optional<double> limit);
};

}  // namespace mailroom
