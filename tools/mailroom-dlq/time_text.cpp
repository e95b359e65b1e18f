#include "time_text.hpp"

#include <charconv>
#include <cstdio>

namespace mailroom::dlq {
namespace {

constexpr std::int64_t kDayMs = 86'400'000;

// Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y = static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2);
}

// Reads exactly `width` digits at text[pos].
bool digits(std::string_view text, std::size_t pos, std::size_t width, unsigned& out) {
  if (pos + width > text.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + width; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    out = out * 10 + static_cast<unsigned>(text[i] - '0');
  }
  return true;
}

std::optional<std::int64_t> parse_iso(std::string_view text) {
  unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(text, 0, 4, year) || text.size() < 10 || text[4] != '-' ||
      !digits(text, 5, 2, month) || text[7] != '-' || !digits(text, 8, 2, day)) {
    return std::nullopt;
  }
  std::size_t pos = 10;
  if (pos < text.size() && (text[pos] == 'T' || text[pos] == ' ')) {
    if (!digits(text, pos + 1, 2, hour) || pos + 3 >= text.size() || text[pos + 3] != ':' ||
        !digits(text, pos + 4, 2, minute)) {
      return std::nullopt;
    }
    pos += 6;
    if (pos < text.size() && text[pos] == ':') {
      if (!digits(text, pos + 1, 2, second)) return std::nullopt;
      pos += 3;
    }
  }
  if (pos < text.size() && text[pos] == 'Z') ++pos;
  if (pos != text.size() || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 ||
      minute > 59 || second > 60) {
    return std::nullopt;
  }
  const std::int64_t days = days_from_civil(year, month, day);
  return days * kDayMs + (hour * 3600 + minute * 60 + second) * std::int64_t{1000};
}

}  // namespace

std::string iso_utc(std::int64_t epoch_ms) {
  std::int64_t days = epoch_ms / kDayMs;
  std::int64_t rest = epoch_ms % kDayMs;
  if (rest < 0) {
    rest += kDayMs;
    --days;
  }
  std::int64_t y = 0;
  unsigned m = 0, d = 0;
  civil_from_days(days, y, m, d);
  char text[40];
  std::snprintf(text, sizeof text, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ",
                static_cast<long long>(y), m, d, static_cast<long long>(rest / 3'600'000),
                static_cast<long long>(rest / 60'000 % 60),
                static_cast<long long>(rest / 1000 % 60), static_cast<long long>(rest % 1000));
  return text;
}

std::optional<std::int64_t> parse_since(std::string_view text, std::int64_t now_ms) {
  if (text.empty()) return std::nullopt;
  std::int64_t number = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
  if (ec == std::errc() && number >= 0) {
    const std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
    if (unit.empty()) {
      // Four digits alone would be a year; epoch milliseconds are longer.
      if (text.size() > 4) return number;
    } else if (unit.size() == 1) {
      const std::int64_t scale = unit[0] == 's'   ? 1000
                                 : unit[0] == 'm' ? 60'000
                                 : unit[0] == 'h' ? 3'600'000
                                 : unit[0] == 'd' ? kDayMs
                                                  : 0;
      if (scale != 0 && number <= (now_ms / scale)) return now_ms - number * scale;
    }
  }
  return parse_iso(text);
}

}  // namespace mailroom::dlq
