// HoconConfig: the subset of HOCON Mailroom reads. Nested objects and dotted
// keys, '=' or ':' (or none before '{'), quoted and unquoted strings, numbers,
// booleans, null, durations (ms, s, m, h, d; also long forms like "seconds"),
// '#' and '//' comments, commas or newlines between fields, later keys
// override earlier ones, objects merge. Not supported, each a ConfigError:
// arrays, substitutions (${...}), includes, '+=', triple-quoted strings.
// Malformed input throws ConfigError with 1-based line and column (columns
// count characters, not bytes). Nesting is limited to 256 levels.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mailroom {

class HoconValue;
using HoconObject = std::map<std::string, HoconValue>;

class HoconValue {
 public:
  using Storage =
      std::variant<std::monostate, bool, double, std::string, std::shared_ptr<HoconObject>>;
  HoconValue() = default;
  explicit HoconValue(Storage s, int line = 0, int column = 0, std::string text = {})
      : storage_(std::move(s)), line_(line), column_(column), text_(std::move(text)) {}

  bool is_null() const { return std::holds_alternative<std::monostate>(storage_); }
  bool is_bool() const { return std::holds_alternative<bool>(storage_); }
  bool is_number() const { return std::holds_alternative<double>(storage_); }
  bool is_string() const { return std::holds_alternative<std::string>(storage_); }
  bool is_object() const { return std::holds_alternative<std::shared_ptr<HoconObject>>(storage_); }
  const Storage& storage() const { return storage_; }
  int line() const { return line_; }
  int column() const { return column_; }
  // The value as written (unquoted strings and numbers keep their text), for
  // error messages.
  std::string to_text() const;

 private:
  Storage storage_;
  int line_ = 0, column_ = 0;
  std::string text_;  // source text of a scalar, empty when not parsed from text
};

class HoconConfig {
 public:
  HoconConfig() = default;
  static HoconConfig parse(std::string_view text);  // throws ConfigError

  // Lookup by dotted path ("mailroom.dead-letters.store").
  const HoconValue* find(std::string_view dotted_path) const;
  // As in Typesafe Config, a path set to null is not "had": has() is false and
  // the getters answer nullopt, so has() guarantees a getter returns a value.
  bool has(std::string_view dotted_path) const {
    const HoconValue* v = find(dotted_path);
    return v != nullptr && !v->is_null();
  }

  // Typed getters: nullopt when absent or null; ConfigError (naming the path,
  // with the value's line and column) when present with the wrong type.
  // get_string also reads numbers and booleans as written ("42", "true").
  std::optional<std::string> get_string(std::string_view path) const;
  std::optional<double> get_number(std::string_view path) const;
  std::optional<bool> get_bool(std::string_view path) const;
  // A duration in milliseconds: "250ms", "6h", "1 d", "1.5 seconds", or a bare
  // number (ms). Units: ms, s, m, h, d and their long forms; fractions round
  // to the nearest millisecond.
  std::optional<std::int64_t> get_duration_ms(std::string_view path) const;

  const HoconObject& root() const;

 private:
  std::shared_ptr<HoconObject> root_;
};

}  // namespace mailroom
