#include "mailroom/detail/capacity.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "mailroom/errors.hpp"
#include "mailroom/option_number.hpp"
#include "number_text.hpp"

namespace mailroom {

std::size_t max_capacity() noexcept {
  static_assert(kMaxOptionCount <= static_cast<double>(std::numeric_limits<std::size_t>::max()));
  return static_cast<std::size_t>(kMaxOptionCount);
}

std::size_t validate_capacity(double value, std::string_view family, std::string_view field) {
  auto fail = [&](const char* why) {
    throw OptionsError(std::string(family), std::string(field), detail::js_number_text(value), why);
  };
  if (std::isnan(value)) fail("capacity must be a number, not NaN");
  if (std::isinf(value)) fail("capacity must be finite");
  if (value <= 0) fail("capacity must be a positive integer (at least 1)");
  if (std::floor(value) != value) fail("capacity must be a whole number of messages");
  if (value > static_cast<double>(max_capacity()))
    fail("capacity is larger than the largest supported (4294967295)");
  return static_cast<std::size_t>(value);
}

}  // namespace mailroom
