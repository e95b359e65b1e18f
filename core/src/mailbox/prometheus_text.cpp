#include "prometheus_text.hpp"

#include <set>

#include "mailroom/errors.hpp"

namespace mailroom::detail {

namespace {
bool is_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

[[noreturn]] void fail(const char* field, std::string_view value, const char* why) {
  throw OptionsError("MetricsRegistry", field, std::string(value), why);
}
}  // namespace

void check_metric_name(std::string_view name) {
  bool valid = !name.empty() && (is_letter(name[0]) || name[0] == ':');
  for (char c : name) valid = valid && (is_letter(c) || is_digit(c) || c == ':');
  if (!valid) fail("name", name, "metric names are [a-zA-Z_:][a-zA-Z0-9_:]*");
}

void check_label_names(const Labels& labels) {
  std::set<std::string_view> seen;
  for (const auto& [name, value] : labels) {
    bool valid = !name.empty() && is_letter(name[0]);
    for (char c : name) valid = valid && (is_letter(c) || is_digit(c));
    if (!valid) fail("label", name, "label names are [a-zA-Z_][a-zA-Z0-9_]*");
    if (name.rfind("__", 0) == 0) fail("label", name, "label names starting with __ are reserved");
    if (!seen.insert(name).second) fail("label", name, "a label name may appear only once");
  }
}

std::string escape_help(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_labels(const Labels& labels) {
  if (labels.empty()) return {};
  std::string out = "{";
  bool first = true;
  for (const auto& [name, value] : labels) {
    if (!first) out += ',';
    first = false;
    out += name;
    out += "=\"";
    for (char c : value) {
      if (c == '\\') {
        out += "\\\\";
      } else if (c == '"') {
        out += "\\\"";
      } else if (c == '\n') {
        out += "\\n";
      } else {
        out += c;
      }
    }
    out += '"';
  }
  out += '}';
  return out;
}

}  // namespace mailroom::detail
