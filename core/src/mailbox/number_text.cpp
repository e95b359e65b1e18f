#include "number_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include "mailroom/detail/c_locale.hpp"

namespace mailroom::detail {

std::string shortest_decimal(double value) {
  CLocaleScope c_locale;
  char buffer[32];
  // 15 significant digits is exact for most values people type; 17 always is.
  for (int precision : {15, 16, 17}) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    if (std::strtod(buffer, nullptr) == value) break;
  }
  return buffer;
}

std::string js_number_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  if (value == 0) return "0";  // -0 too, as String(-0)
  const double magnitude = std::fabs(value);
  char buffer[64];
  if (magnitude >= 1e-6 && magnitude < 1e21) {
    CLocaleScope c_locale;
    // Plain decimal notation, as JS uses in this range: the fewest fraction
    // digits that read back as the same double.
    for (int digits = 0; digits <= 20; ++digits) {
      std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
      if (std::strtod(buffer, nullptr) == value) break;
    }
    return buffer;
  }
  // Exponent notation without the exponent's leading zeros ("1e-7", "1e+21").
  std::string text = shortest_decimal(value);
  const auto e = text.find('e');
  if (e != std::string::npos) {
    std::size_t digits = e + 2;
    while (digits + 1 < text.size() && text[digits] == '0') text.erase(digits, 1);
  }
  return text;
}

std::string prometheus_number_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return shortest_decimal(value);
}

}  // namespace mailroom::detail
