#include "hocon_duration.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

#include "mailroom/detail/c_locale.hpp"

namespace mailroom::detail {
namespace {

struct Unit {
  std::string_view name;
  double ms;
};

constexpr Unit kUnits[] = {
    {"ms", 1},     {"milli", 1},    {"millis", 1},    {"millisecond", 1}, {"milliseconds", 1},
    {"s", 1e3},    {"sec", 1e3},    {"secs", 1e3},    {"second", 1e3},    {"seconds", 1e3},
    {"m", 6e4},    {"min", 6e4},    {"mins", 6e4},    {"minute", 6e4},    {"minutes", 6e4},
    {"h", 3.6e6},  {"hr", 3.6e6},   {"hrs", 3.6e6},   {"hour", 3.6e6},    {"hours", 3.6e6},
    {"d", 8.64e7}, {"day", 8.64e7}, {"days", 8.64e7},
};

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::optional<std::int64_t> parse_duration_ms(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  const std::size_t digits_start = i;
  while (i < text.size() && is_digit(text[i])) ++i;
  if (i == digits_start) return std::nullopt;
  if (i < text.size() && text[i] == '.') {
    const std::size_t fraction_start = ++i;
    while (i < text.size() && is_digit(text[i])) ++i;
    if (i == fraction_start) return std::nullopt;
  }
  // strtod on a copy: the view is not NUL-terminated (and from_chars for
  // doubles is missing in libc++ 13).
  const double number = [&] {
    detail::CLocaleScope c_locale;
    return std::strtod(std::string(text.substr(0, i)).c_str(), nullptr);
  }();
  std::string_view rest = text.substr(i);
  while (!rest.empty() && is_space(rest.front())) rest.remove_prefix(1);
  double factor = 1;
  if (!rest.empty()) {
    std::string unit(rest);
    for (char& c : unit) {
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    const Unit* found = nullptr;
    for (const Unit& u : kUnits) {
      if (u.name == unit) found = &u;
    }
    if (found == nullptr) return std::nullopt;
    factor = found->ms;
  }
  const double ms = std::round(number * factor);
  // 9.2e18 is just inside int64; beyond it (or inf/NaN) is no duration.
  if (!std::isfinite(ms) || std::fabs(ms) > 9.2e18) return std::nullopt;
  return static_cast<std::int64_t>(ms);
}

}  // namespace mailroom::detail
