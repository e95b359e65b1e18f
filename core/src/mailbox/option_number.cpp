#include "mailroom/option_number.hpp"

#include <cmath>

#include "mailroom/errors.hpp"
#include "number_text.hpp"

namespace mailroom {

double validate_whole_number(double value, std::string_view family, std::string_view field,
                             double min, double max, std::string_view expectation) {
  const bool whole = std::isfinite(value) && std::floor(value) == value;
  if (!whole || value < min || value > max) {
    std::string why = "must be " + std::string(expectation);
    if (whole && value > max) why += " (at most " + option_number_text(max) + ")";
    throw OptionsError(std::string(family), std::string(field), option_number_text(value), why);
  }
  return value;
}

std::string option_number_text(double value) {
  return detail::js_number_text(value);
}

}  // namespace mailroom
