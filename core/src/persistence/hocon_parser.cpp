#include "hocon_parser.hpp"

#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "mailroom/detail/c_locale.hpp"
#include "mailroom/errors.hpp"

namespace mailroom::detail {
namespace {

struct Position {
  int line = 1;
  int column = 1;
};

struct KeySegment {
  std::string name;
  Position at;
};

bool is_inline_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// Characters HOCON reserves; they end an unquoted key and are refused inside
// an unquoted value.
bool is_reserved(char c) {
  switch (c) {
    case '$':
    case '"':
    case '{':
    case '}':
    case '[':
    case ']':
    case ':':
    case '=':
    case ',':
    case '+':
    case '#':
    case '`':
    case '^':
    case '?':
    case '!':
    case '@':
    case '*':
    case '&':
    case '\\':
      return true;
    default:
      return false;
  }
}

std::string printable(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F) return std::string("'") + c + "'";
  static constexpr char kHex[] = "0123456789ABCDEF";
  return std::string("byte 0x") + kHex[u >> 4] + kHex[u & 0xF];
}

bool is_number_text(std::string_view t) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
    return i > start;
  };
  if (i < t.size() && t[i] == '-') ++i;
  if (!digits()) return false;
  if (i < t.size() && t[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == t.size();
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

void merge_into(HoconObject& target, const HoconObject& source) {
  for (const auto& [key, value] : source) {
    auto it = target.find(key);
    if (it != target.end() && it->second.is_object() && value.is_object()) {
      merge_into(*std::get<std::shared_ptr<HoconObject>>(it->second.storage()),
                 *std::get<std::shared_ptr<HoconObject>>(value.storage()));
    } else {
      target[key] = value;
    }
  }
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::shared_ptr<HoconObject> parse_document() {
    auto root = std::make_shared<HoconObject>();
    skip_blank();
    if (!at_end() && peek() == '{') {  // a root object may be wrapped in braces
      const Position open = here();
      advance();
      parse_fields(*root, 0, &open);
      skip_blank();
      if (!at_end()) fail("unexpected " + printable(peek()) + " after the root object");
    } else {
      parse_fields(*root, 0, nullptr);
    }
    return root;
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  char peek(std::size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  bool at_comment() const { return peek() == '#' || (peek() == '/' && peek(1) == '/'); }
  Position here() const { return at_; }

  // Columns count characters: UTF-8 continuation bytes do not advance them.
  void advance() {
    const char c = text_[pos_++];
    if (c == '\n') {
      ++at_.line;
      at_.column = 1;
    } else if (at_end() || (static_cast<unsigned char>(text_[pos_]) & 0xC0) != 0x80) {
      ++at_.column;
    }
  }

  [[noreturn]] void fail(const std::string& what) const { fail_at(what, at_); }
  [[noreturn]] static void fail_at(const std::string& what, Position p) {
    throw ConfigError(what, p.line, p.column);
  }

  void skip_inline() {
    for (;;) {
      while (!at_end() && is_inline_space(peek())) advance();
      if (!at_comment()) return;
      while (!at_end() && peek() != '\n') advance();
    }
  }

  void skip_blank() {  // spaces, comments and newlines
    for (;;) {
      skip_inline();
      if (at_end() || peek() != '\n') return;
      advance();
    }
  }

  void parse_fields(HoconObject& target, std::size_t depth, const Position* open) {
    for (;;) {
      skip_blank();
      if (at_end()) {
        if (open != nullptr) {
          fail("end of input inside the object opened at line " + std::to_string(open->line) +
               ", column " + std::to_string(open->column) + " (missing '}')");
        }
        return;
      }
      if (peek() == '}') {
        if (open == nullptr) fail("unexpected '}' without a matching '{'");
        advance();
        return;
      }
      if (peek() == ',') fail("unexpected ',' where a key was expected");
      parse_field(target, depth);
      skip_inline();
      if (at_end() || peek() == '}') continue;
      if (peek() == ',' || peek() == '\n') {
        advance();
        continue;
      }
      fail("expected ',' or a new line after the value, found " + printable(peek()));
    }
  }

  void parse_field(HoconObject& target, std::size_t depth) {
    std::vector<KeySegment> key = parse_key();
    const std::size_t level = depth + key.size();
    if (level > kHoconMaxDepth) {
      fail_at("nesting deeper than " + std::to_string(kHoconMaxDepth) + " levels", key.front().at);
    }
    skip_inline();
    HoconValue value;
    if (peek() == '{') {
      value = parse_object(level);
    } else if (peek() == '=' || peek() == ':') {
      advance();
      skip_inline();
      if (at_end() || peek() == '\n' || peek() == ',' || peek() == '}') {
        fail("expected a value after '" + join(key) + "'");
      }
      value = parse_value(level);
    } else if (peek() == '+' && peek(1) == '=') {
      fail("'+=' is not supported");
    } else {
      fail("expected '=', ':' or '{' after key '" + join(key) + "'" +
           (at_end() ? std::string(", found end of input") : ", found " + printable(peek())));
    }
    assign(target, key, std::move(value));
  }

  static std::string join(const std::vector<KeySegment>& key) {
    std::string out;
    for (const auto& s : key) out += (out.empty() ? "" : ".") + s.name;
    return out;
  }

  std::vector<KeySegment> parse_key() {
    std::vector<KeySegment> segments;
    for (;;) {
      const Position start = here();
      std::string name;
      if (peek() == '"') {
        name = parse_quoted();
      } else {
        while (!at_end() && !is_inline_space(peek()) && peek() != '\n' && peek() != '.' &&
               !is_reserved(peek()) && !at_comment() &&
               static_cast<unsigned char>(peek()) >= 0x20) {
          name.push_back(peek());
          advance();
        }
        if (name.empty()) {
          fail(at_end() ? std::string("expected a key, found end of input")
                        : "expected a key, found " + printable(peek()));
        }
      }
      segments.push_back(KeySegment{std::move(name), start});
      if (peek() != '.') return segments;
      advance();
      if (segments.size() > kHoconMaxDepth) {
        fail("nesting deeper than " + std::to_string(kHoconMaxDepth) + " levels");
      }
    }
  }

  HoconValue parse_object(std::size_t level) {
    const Position open = here();
    if (level >= kHoconMaxDepth) {
      fail("nesting deeper than " + std::to_string(kHoconMaxDepth) + " levels");
    }
    advance();  // '{'
    auto object = std::make_shared<HoconObject>();
    parse_fields(*object, level + 1, &open);
    return HoconValue(std::move(object), open.line, open.column);
  }

  HoconValue parse_value(std::size_t level) {
    const Position start = here();
    const char c = peek();
    if (c == '{') return parse_object(level);
    if (c == '[') fail("arrays are not supported");
    if (c == '$') fail("substitutions (${...}) are not supported");
    if (c == '"') {
      if (peek(1) == '"' && peek(2) == '"') fail("triple-quoted strings are not supported");
      std::string s = parse_quoted();
      std::string text = s;
      return HoconValue(std::move(s), start.line, start.column, std::move(text));
    }
    std::string text;
    while (!at_end() && peek() != '\n' && peek() != ',' && peek() != '}' && !at_comment()) {
      const char ch = peek();
      if (is_reserved(ch) || (static_cast<unsigned char>(ch) < 0x20 && ch != '\t' && ch != '\r')) {
        fail(printable(ch) + " is not allowed in an unquoted value (quote the string)");
      }
      text.push_back(ch);
      advance();
    }
    while (!text.empty() && is_inline_space(text.back())) text.pop_back();
    return classify(std::move(text), start);
  }

  static HoconValue classify(std::string text, Position at) {
    if (text == "true" || text == "false") {
      const bool b = text == "true";
      return HoconValue(b, at.line, at.column, std::move(text));
    }
    if (text == "null") return HoconValue(std::monostate{}, at.line, at.column, std::move(text));
    if (is_number_text(text)) {
      const double d = [&] {
        CLocaleScope c_locale;
        return std::strtod(text.c_str(), nullptr);
      }();
      if (!std::isfinite(d)) fail_at("number " + text + " is out of range", at);
      return HoconValue(d, at.line, at.column, std::move(text));
    }
    std::string s = text;
    return HoconValue(std::move(s), at.line, at.column, std::move(text));
  }

  std::string parse_quoted() {
    const Position open = here();
    advance();  // opening quote
    std::string out;
    for (;;) {
      if (at_end() || peek() == '\n') fail_at("unterminated quoted string", open);
      const char c = peek();
      if (c == '"') {
        advance();
        return out;
      }
      if (c != '\\') {
        out.push_back(c);
        advance();
        continue;
      }
      const Position escape = here();
      advance();
      if (at_end()) fail_at("unterminated quoted string", open);
      const char e = peek();
      advance();
      switch (e) {
        case '"':
          out.push_back('"');
          break;
        case '\\':
          out.push_back('\\');
          break;
        case '/':
          out.push_back('/');
          break;
        case 'b':
          out.push_back('\b');
          break;
        case 'f':
          out.push_back('\f');
          break;
        case 'n':
          out.push_back('\n');
          break;
        case 'r':
          out.push_back('\r');
          break;
        case 't':
          out.push_back('\t');
          break;
        case 'u':
          append_utf8(out, parse_unicode_escape(escape));
          break;
        default:
          fail_at("invalid escape \\" + std::string(1, e) + " in a quoted string", escape);
      }
    }
  }

  std::uint32_t read_hex4(Position escape) {
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = peek();
      int digit = -1;
      if (h >= '0' && h <= '9') digit = h - '0';
      if (h >= 'a' && h <= 'f') digit = h - 'a' + 10;
      if (h >= 'A' && h <= 'F') digit = h - 'A' + 10;
      if (at_end() || digit < 0) fail_at("\\u needs four hex digits", escape);
      v = v * 16 + static_cast<std::uint32_t>(digit);
      advance();
    }
    return v;
  }

  // Already past "\u"; joins a surrogate pair into one code point.
  std::uint32_t parse_unicode_escape(Position escape) {
    const std::uint32_t first = read_hex4(escape);
    if (first >= 0xDC00 && first <= 0xDFFF) fail_at("unpaired surrogate in \\u escape", escape);
    if (first < 0xD800 || first > 0xDBFF) return first;
    if (peek() != '\\' || peek(1) != 'u') fail_at("unpaired surrogate in \\u escape", escape);
    advance();
    advance();
    const std::uint32_t second = read_hex4(escape);
    if (second < 0xDC00 || second > 0xDFFF) fail_at("unpaired surrogate in \\u escape", escape);
    return 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
  }

  void assign(HoconObject& target, const std::vector<KeySegment>& key, HoconValue value) {
    HoconObject* current = &target;
    for (std::size_t i = 0; i + 1 < key.size(); ++i) {
      HoconValue& slot = (*current)[key[i].name];
      if (!slot.is_object()) {  // a scalar here is overridden by the object
        slot = HoconValue(std::make_shared<HoconObject>(), key[i].at.line, key[i].at.column);
      }
      current = std::get<std::shared_ptr<HoconObject>>(slot.storage()).get();
    }
    auto it = current->find(key.back().name);
    if (it != current->end() && it->second.is_object() && value.is_object()) {
      merge_into(*std::get<std::shared_ptr<HoconObject>>(it->second.storage()),
                 *std::get<std::shared_ptr<HoconObject>>(value.storage()));
    } else {
      (*current)[key.back().name] = std::move(value);
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  Position at_;
};

}  // namespace

std::shared_ptr<HoconObject> parse_hocon(std::string_view text) {
  // A UTF-8 byte-order mark (editors on Windows write one) is not text.
  constexpr std::string_view kBom = "\xEF\xBB\xBF";
  if (text.substr(0, kBom.size()) == kBom) text.remove_prefix(kBom.size());
  return Parser(text).parse_document();
}

}  // namespace mailroom::detail
