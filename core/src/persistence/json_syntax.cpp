#include "json_syntax.hpp"

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mailroom/detail/c_locale.hpp"

namespace mailroom::detail {
namespace {

constexpr std::size_t kInlineDepth = 512;

// The open containers, innermost last: '{' or '['. Inline up to kInlineDepth.
class ContainerStack {
 public:
  void push(char c) {
    if (size_ < inline_.size()) {
      inline_[size_] = c;
    } else {
      spill_.push_back(c);
    }
    ++size_;
  }
  void pop() {
    --size_;
    if (size_ >= inline_.size()) spill_.pop_back();
  }
  char top() const { return size_ <= inline_.size() ? inline_[size_ - 1] : spill_.back(); }
  std::size_t size() const { return size_; }

 private:
  std::array<char, kInlineDepth> inline_;
  std::vector<char> spill_;
  std::size_t size_ = 0;
};

class Checker {
 public:
  Checker(std::string_view text, std::size_t max_depth)
      : begin_(reinterpret_cast<const unsigned char*>(text.data())),
        p_(begin_),
        end_(begin_ + text.size()),
        max_depth_(max_depth) {}

  JsonSyntaxResult run();

 private:
  bool fail(const char* what) {
    result_.ok = false;
    result_.offset = static_cast<std::size_t>(p_ - begin_);
    result_.what = what;
    return false;
  }
  bool at_end() const { return p_ == end_; }
  void skip_whitespace() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  bool literal(const char* word, std::size_t length);
  bool number();
  bool string();
  bool escape();
  bool hex4(unsigned& code);
  bool utf8_sequence();
  bool open(char container);
  bool member_key(const char* missing);

  const unsigned char* const begin_;
  const unsigned char* p_;
  const unsigned char* const end_;
  const std::size_t max_depth_;
  ContainerStack stack_;
  JsonSyntaxResult result_;
};

bool Checker::literal(const char* word, std::size_t length) {
  if (static_cast<std::size_t>(end_ - p_) < length || std::memcmp(p_, word, length) != 0) {
    return fail("invalid literal");
  }
  p_ += length;
  return true;
}

bool is_digit(unsigned char c) {
  return c >= '0' && c <= '9';
}

// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, and finite as a double (the
// parser refuses an overflow such as 1e309; an underflow to 0 is accepted).
bool Checker::number() {
  const unsigned char* start = p_;
  bool plain_integer = true;
  if (*p_ == '-') ++p_;
  if (at_end() || !is_digit(*p_)) return fail("a minus sign must be followed by a digit");
  if (*p_ == '0') {
    ++p_;
  } else {
    while (p_ != end_ && is_digit(*p_)) ++p_;
  }
  if (p_ != end_ && *p_ == '.') {
    plain_integer = false;
    ++p_;
    if (at_end() || !is_digit(*p_)) return fail("a decimal point must be followed by a digit");
    while (p_ != end_ && is_digit(*p_)) ++p_;
  }
  if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
    plain_integer = false;
    ++p_;
    if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
    if (at_end() || !is_digit(*p_)) return fail("an exponent must have digits");
    while (p_ != end_ && is_digit(*p_)) ++p_;
  }
  const auto length = static_cast<std::size_t>(p_ - start);
  // Up to 18 digits an integer fits 64 bits; anything else is read as the parser would.
  if (plain_integer && length <= 18) return true;
  const std::string token(reinterpret_cast<const char*>(start), length);
  CLocaleScope c_locale;
  if (!std::isfinite(std::strtod(token.c_str(), nullptr))) {
    p_ = start;
    return fail("number overflow");
  }
  return true;
}

bool Checker::hex4(unsigned& code) {
  if (end_ - p_ < 4) return fail("\\u must be followed by four hex digits");
  code = 0;
  for (int i = 0; i < 4; ++i, ++p_) {
    const unsigned char c = *p_;
    unsigned digit;
    if (c >= '0' && c <= '9') {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return fail("\\u must be followed by four hex digits");
    }
    code = code * 16 + digit;
  }
  return true;
}

// After the backslash.
bool Checker::escape() {
  if (at_end()) return fail("unterminated string");
  switch (*p_++) {
    case '"':
    case '\\':
    case '/':
    case 'b':
    case 'f':
    case 'n':
    case 'r':
    case 't':
      return true;
    case 'u': {
      unsigned code;
      if (!hex4(code)) return false;
      if (code >= 0xDC00 && code <= 0xDFFF) return fail("a low surrogate without a high one");
      if (code < 0xD800 || code > 0xDBFF) return true;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') {
        return fail("a high surrogate must be followed by a low one");
      }
      p_ += 2;
      if (!hex4(code)) return false;
      if (code < 0xDC00 || code > 0xDFFF)
        return fail("a high surrogate must be followed by a low one");
      return true;
    }
    default:
      --p_;
      return fail("invalid escape");
  }
}

// One multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF), starting at its lead byte.
bool Checker::utf8_sequence() {
  const unsigned char lead = *p_;
  unsigned char low = 0x80, high = 0xBF;
  std::size_t continuation;
  if (lead >= 0xC2 && lead <= 0xDF) {
    continuation = 1;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    continuation = 2;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    continuation = 3;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return fail("invalid UTF-8");
  }
  ++p_;
  for (std::size_t i = 0; i < continuation; ++i, ++p_) {
    if (at_end() || *p_ < low || *p_ > high) return fail("invalid UTF-8");
    low = 0x80;
    high = 0xBF;
  }
  return true;
}

// At the opening quote.
bool Checker::string() {
  ++p_;
  for (;;) {
    // The common bytes in a tight loop: printable ASCII other than " and \.
    while (p_ != end_ && *p_ >= 0x20 && *p_ < 0x80 && *p_ != '"' && *p_ != '\\') ++p_;
    if (at_end()) return fail("unterminated string");
    const unsigned char c = *p_;
    if (c == '"') {
      ++p_;
      return true;
    }
    if (c == '\\') {
      ++p_;
      if (!escape()) return false;
    } else if (c < 0x20) {
      return fail("a control character in a string must be escaped");
    } else if (!utf8_sequence()) {
      return false;
    }
  }
}

bool Checker::open(char container) {
  if (stack_.size() + 1 > max_depth_) {
    result_.too_deep = true;
    return fail("nested too deep");
  }
  stack_.push(container);
  ++p_;
  return true;
}

// An object member's key and its colon, at the key's opening quote; missing
// names what was expected where no quote is.
bool Checker::member_key(const char* missing) {
  if (at_end() || *p_ != '"') return fail(missing);
  if (!string()) return false;
  skip_whitespace();
  if (at_end() || *p_ != ':') return fail("expected ':' after a key");
  ++p_;
  return true;
}

JsonSyntaxResult Checker::run() {
  // A byte order mark is skipped at the very start only.
  if (end_ - p_ >= 1 && *p_ == 0xEF) {
    if (end_ - p_ < 3 || p_[1] != 0xBB || p_[2] != 0xBF) {
      fail("invalid byte order mark");
      return result_;
    }
    p_ += 3;
  }
  // Two states: a value is expected, or one was just read.
  for (;;) {
    // ---- a value ----
    skip_whitespace();
    if (at_end()) {
      fail("unexpected end of input; expected a value");
      return result_;
    }
    bool scalar = true;
    switch (*p_) {
      case '{':
        if (!open('{')) return result_;
        skip_whitespace();
        if (!at_end() && *p_ == '}') {
          stack_.pop();
          ++p_;
          break;
        }
        if (!member_key("expected a string key or '}'")) return result_;
        scalar = false;
        break;
      case '[':
        if (!open('[')) return result_;
        skip_whitespace();
        if (!at_end() && *p_ == ']') {
          stack_.pop();
          ++p_;
          break;
        }
        scalar = false;
        break;
      case '"':
        if (!string()) return result_;
        break;
      case 't':
        if (!literal("true", 4)) return result_;
        break;
      case 'f':
        if (!literal("false", 5)) return result_;
        break;
      case 'n':
        if (!literal("null", 4)) return result_;
        break;
      default:
        if (*p_ == '-' || is_digit(*p_)) {
          if (!number()) return result_;
          break;
        }
        fail("expected a value");
        return result_;
    }
    if (!scalar) continue;  // a container's first member follows
    // ---- after a value: close containers, or a separator and the next member ----
    for (;;) {
      skip_whitespace();
      if (stack_.size() == 0) {
        if (!at_end()) fail("unexpected text after the value");
        return result_;
      }
      if (at_end()) {
        fail("unexpected end of input inside a container");
        return result_;
      }
      const char container = stack_.top();
      const unsigned char c = *p_;
      if ((container == '{' && c == '}') || (container == '[' && c == ']')) {
        stack_.pop();
        ++p_;
        continue;
      }
      if (c != ',') {
        fail(container == '{' ? "expected ',' or '}'" : "expected ',' or ']'");
        return result_;
      }
      ++p_;
      if (container == '{') {
        skip_whitespace();
        if (!member_key("expected a string key")) return result_;
      }
      break;  // the next value
    }
  }
}

}  // namespace

JsonSyntaxResult check_json_syntax(std::string_view text, std::size_t max_depth) {
  return Checker(text, max_depth).run();
}

}  // namespace mailroom::detail
