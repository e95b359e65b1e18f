#include "number_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mailroom::detail {

std::string shortest_decimal(double value) {
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
  return shortest_decimal(value);
}

std::string prometheus_number_text(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return shortest_decimal(value);
}

}  // namespace mailroom::detail
