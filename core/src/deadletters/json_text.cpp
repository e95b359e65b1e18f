#include "json_text.hpp"

#include <nlohmann/json.hpp>

namespace mailroom::detail {
namespace {

bool continuation(unsigned char c) noexcept {
  return (c & 0xC0u) == 0x80u;
}

// Length of the well-formed UTF-8 sequence starting at text[i] (a byte >= 0x80),
// or 0 (Unicode table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t sequence_length(std::string_view text, std::size_t i) noexcept {
  const auto at = [&](std::size_t k) -> unsigned char {
    return i + k < text.size() ? static_cast<unsigned char>(text[i + k]) : 0;
  };
  const unsigned char c = at(0);
  if (c >= 0xC2 && c <= 0xDF) return continuation(at(1)) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned char lo = c == 0xE0 ? 0xA0 : 0x80;
    const unsigned char hi = c == 0xED ? 0x9F : 0xBF;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned char lo = c == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = c == 0xF4 ? 0x8F : 0xBF;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  }
  return 0;
}

void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    case '\b':
      out += "\\b";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";  // nlohmann writes \u%04x
      const char escaped[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out.append(escaped, sizeof escaped);
    }
  }
}

// Decimal digits two at a time, in 32-bit arithmetic: libc++'s 64-bit
// to_chars (__u64toa) was 4 % of a persistent capture in wasm, where the
// record writes three 64-bit numbers (id, count, a millisecond time).
constexpr char kDigitPairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// Writes v's digits ending at `end`; `width` > 0 pads with zeros to that many.
char* write_u32(char* end, std::uint32_t v, int width = 0) {
  char* p = end;
  while (v >= 100) {
    const std::uint32_t pair = (v % 100) * 2;
    v /= 100;
    *--p = kDigitPairs[pair + 1];
    *--p = kDigitPairs[pair];
  }
  if (v >= 10) {
    *--p = kDigitPairs[v * 2 + 1];
    *--p = kDigitPairs[v * 2];
  } else {
    *--p = static_cast<char>('0' + v);
  }
  while (end - p < width) *--p = '0';
  return p;
}

void append_unsigned(std::string& out, std::uint64_t value) {
  char digits[24];
  char* const end = digits + sizeof digits;
  char* p = end;
  // At most two 64-bit divisions, then 32-bit work for every digit.
  while (value > 0xFFFFFFFFu) {
    const auto low = static_cast<std::uint32_t>(value % 100000000u);
    value /= 100000000u;
    p = write_u32(p, low, 8);
  }
  p = write_u32(p, static_cast<std::uint32_t>(value));
  out.append(p, end);
}

}  // namespace

void append_json_string(std::string& out, std::string_view text) {
  const std::size_t start = out.size();
  out.push_back('"');
  std::size_t run = 0;  // start of the bytes not yet copied
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') continue;
    if (c >= 0x80) {
      const std::size_t length = sequence_length(text, i);
      if (length == 0) {
        // Rare: nlohmann's own replacement rules, so the bytes stay what they were.
        out.resize(start);
        out += nlohmann::json(std::string(text))
                   .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        return;
      }
      i += length - 1;
      continue;
    }
    out.append(text.data() + run, i - run);
    append_escape(out, c);
    run = i + 1;
  }
  out.append(text.data() + run, text.size() - run);
  out.push_back('"');
}

void append_json_number(std::string& out, std::uint64_t value) {
  append_unsigned(out, value);
}

void append_json_number(std::string& out, std::int64_t value) {
  if (value < 0) {
    out.push_back('-');
    // Two's complement negation in unsigned arithmetic: INT64_MIN too.
    append_unsigned(out, ~static_cast<std::uint64_t>(value) + 1);
  } else {
    append_unsigned(out, static_cast<std::uint64_t>(value));
  }
}

}  // namespace mailroom::detail
