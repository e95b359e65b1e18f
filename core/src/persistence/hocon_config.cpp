#include "mailroom/hocon_config.hpp"

#include <cmath>
#include <cstdio>

#include "hocon_duration.hpp"
#include "hocon_parser.hpp"
#include "mailroom/detail/c_locale.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {
namespace {

std::string format_number(double d) {
  detail::CLocaleScope c_locale;
  char buffer[32];
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", d);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.17g", d);
  }
  return buffer;
}

std::string describe(const HoconValue& v) {
  if (v.is_object()) return "an object";
  if (v.is_string()) return "the string \"" + v.to_text() + "\"";
  if (v.is_bool()) return "the boolean " + v.to_text();
  if (v.is_number()) return "the number " + v.to_text();
  return "null";
}

[[noreturn]] void type_error(std::string_view path, const HoconValue& v, const char* expected) {
  throw ConfigError(std::string(path) + ": expected " + expected + ", got " + describe(v), v.line(),
                    v.column());
}

}  // namespace

std::string HoconValue::to_text() const {
  if (!text_.empty()) return text_;
  if (const auto* s = std::get_if<std::string>(&storage_)) return *s;
  if (const auto* b = std::get_if<bool>(&storage_)) return *b ? "true" : "false";
  if (const auto* d = std::get_if<double>(&storage_)) return format_number(*d);
  if (is_object()) return "{...}";
  return "null";
}

HoconConfig HoconConfig::parse(std::string_view text) {
  HoconConfig config;
  config.root_ = detail::parse_hocon(text);
  return config;
}

const HoconObject& HoconConfig::root() const {
  static const HoconObject kEmpty;
  return root_ ? *root_ : kEmpty;
}

const HoconValue* HoconConfig::find(std::string_view dotted_path) const {
  if (!root_ || dotted_path.empty()) return nullptr;
  const HoconObject* object = root_.get();
  const HoconValue* value = nullptr;
  for (;;) {
    const std::size_t dot = dotted_path.find('.');
    const std::string key(dotted_path.substr(0, dot));
    const auto it = object->find(key);
    if (it == object->end()) return nullptr;
    value = &it->second;
    if (dot == std::string_view::npos) return value;
    if (!value->is_object()) return nullptr;
    object = std::get<std::shared_ptr<HoconObject>>(value->storage()).get();
    dotted_path.remove_prefix(dot + 1);
  }
}

std::optional<std::string> HoconConfig::get_string(std::string_view path) const {
  const HoconValue* v = find(path);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (v->is_object()) type_error(path, *v, "a string");
  return v->to_text();
}

std::optional<double> HoconConfig::get_number(std::string_view path) const {
  const HoconValue* v = find(path);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_number()) type_error(path, *v, "a number");
  return std::get<double>(v->storage());
}

std::optional<bool> HoconConfig::get_bool(std::string_view path) const {
  const HoconValue* v = find(path);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (v->is_bool()) return std::get<bool>(v->storage());
  if (v->is_string()) {  // HOCON's other spellings of a boolean
    const std::string& s = std::get<std::string>(v->storage());
    if (s == "true" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "no" || s == "off") return false;
  }
  type_error(path, *v, "a boolean");
}

std::optional<std::int64_t> HoconConfig::get_duration_ms(std::string_view path) const {
  const HoconValue* v = find(path);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (v->is_number()) {  // a bare number is milliseconds (also when written 1e3)
    const double ms = std::round(std::get<double>(v->storage()));
    if (std::fabs(ms) <= 9.2e18) return static_cast<std::int64_t>(ms);
  } else if (v->is_string()) {
    if (auto ms = detail::parse_duration_ms(v->to_text())) return ms;
  }
  type_error(path, *v, "a duration such as 250ms, 30s, 1h or 1d");
}

}  // namespace mailroom
