#include "mailroom/dead_letter_filter.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "mailroom/errors.hpp"

namespace mailroom {
namespace {

std::string text_of(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

void check_not_nan(const char* field, double v) {
  if (std::isnan(v)) throw OptionsError("DeadLetterFilter", field, "NaN", "must be a number");
}

// A time bound as an int64 millisecond: beyond the range clamps to its end,
// where nothing can be newer (since) or older (until).
std::int64_t clamp_ms(double v) {
  constexpr auto lo = static_cast<double>(std::numeric_limits<std::int64_t>::min());
  constexpr auto hi = static_cast<double>(std::numeric_limits<std::int64_t>::max());
  if (v <= lo) return std::numeric_limits<std::int64_t>::min();
  if (v >= hi) return std::numeric_limits<std::int64_t>::max();
  return static_cast<std::int64_t>(v);
}

}  // namespace

DeadLetterFilter DeadLetterFilter::from_numbers(std::optional<std::string> recipient,
                                                std::optional<double> since_ms,
                                                std::optional<double> until_ms,
                                                std::optional<double> limit) {
  DeadLetterFilter f;
  f.recipient = std::move(recipient);
  if (since_ms) {
    check_not_nan("sinceMs", *since_ms);
    if (*since_ms != -std::numeric_limits<double>::infinity()) {
      f.since_ms = clamp_ms(std::ceil(*since_ms));  // timestamp >= 1.5 means >= 2
    }
  }
  if (until_ms) {
    check_not_nan("untilMs", *until_ms);
    if (*until_ms != std::numeric_limits<double>::infinity()) {
      f.until_ms = clamp_ms(std::floor(*until_ms));
    }
  }
  if (limit) {
    check_not_nan("limit", *limit);
    if (*limit < 0 || (std::isfinite(*limit) && std::floor(*limit) != *limit)) {
      throw OptionsError("DeadLetterFilter", "limit", text_of(*limit),
                         "must be an integer >= 0 or Infinity");
    }
    constexpr auto most = static_cast<double>(std::numeric_limits<std::size_t>::max());
    if (*limit < most) f.limit = static_cast<std::size_t>(*limit);  // else: no limit
  }
  return f;
}

}  // namespace mailroom
