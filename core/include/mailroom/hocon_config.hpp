// HoconConfig: the subset of HOCON Mailroom reads. Nested objects and dotted
// keys, '=' or ':' (or none before '{'), quoted and unquoted strings, numbers,
// booleans, durations (ms, s, m, h, d; also long forms like "seconds"), '#'
// and '//' comments, later keys override earlier ones, objects merge.
// Malformed input throws ConfigError with 1-based line and column.
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
  explicit HoconValue(Storage s, int line = 0, int column = 0)
      : storage_(std::move(s)), line_(line), column_(column) {}

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
};

class HoconConfig {
 public:
  HoconConfig() = default;
  static HoconConfig parse(std::string_view text);  // throws ConfigError

  // Lookup by dotted path ("mailroom.dead-letters.store").
  const HoconValue* find(std::string_view dotted_path) const;
  bool has(std::string_view dotted_path) const { return find(dotted_path) != nullptr; }

  // Typed getters: nullopt when absent; ConfigError (with the value's line and
  // column) when present with the wrong type.
  std::optional<std::string> get_string(std::string_view path) const;
  std::optional<double> get_number(std::string_view path) const;
  std::optional<bool> get_bool(std::string_view path) const;
  // A duration in milliseconds: "250ms", "6h", "1 d", or a bare number (ms).
  std::optional<std::int64_t> get_duration_ms(std::string_view path) const;

  const HoconObject& root() const;

 private:
  std::shared_ptr<HoconObject> root_;
};

}  // namespace mailroom
