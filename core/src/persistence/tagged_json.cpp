#include "mailroom/tagged_json.hpp"

#include "json_syntax.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

namespace mailroom::tagged_json {

ValidationResult validate(const nlohmann::json& value, std::size_t max_depth) {
  // Explicit stack of (node, depth): a recursive walk is what hostile input exploits.
  std::vector<std::pair<const nlohmann::json*, std::size_t>> stack{{&value, 0}};
  while (!stack.empty()) {
    const auto [node, depth] = stack.back();
    stack.pop_back();
    if (!node->is_structured()) continue;
    if (depth + 1 > max_depth) {
      return {false, "value nested deeper than " + std::to_string(max_depth) + " levels"};
    }
    for (const auto& child : *node) stack.emplace_back(&child, depth + 1);
  }
  return {};
}

ValidationResult validate_text(std::string_view text, std::size_t max_depth) {
  detail::JsonSyntaxResult checked;
  try {
    checked = detail::check_json_syntax(text, max_depth);
  } catch (const std::exception& e) {  // bad_alloc on absurd input: still a result
    return {false, e.what()};
  }
  if (checked.ok) return {};
  if (checked.too_deep) {
    return {false, "value nested deeper than " + std::to_string(max_depth) + " levels"};
  }
  return {false, "malformed JSON at byte " + std::to_string(checked.offset) + ": " + checked.what};
}

std::size_t text_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest) deepest = depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

nlohmann::json parse_bounded(std::string_view text, std::size_t max_depth) {
  if (text_depth(text) > max_depth) {
    throw std::invalid_argument("JSON nested deeper than " + std::to_string(max_depth) + " levels");
  }
  return nlohmann::json::parse(text.begin(), text.end());
}

std::string encode(std::string_view tag, const nlohmann::json& value) {
  if (tag.empty()) throw std::invalid_argument("tagged_json::encode: empty type tag");
  const ValidationResult valid = validate(value);
  if (!valid.ok) throw std::invalid_argument("tagged_json::encode: " + valid.error);
  // Serialised piecewise: copying the value into a wrapper object would recurse once more.
  try {
    return "{\"t\":" + nlohmann::json(std::string(tag)).dump() + ",\"v\":" + value.dump() + "}";
  } catch (const nlohmann::json::exception& e) {  // invalid UTF-8 in a string
    throw std::invalid_argument(std::string("tagged_json::encode: ") + e.what());
  }
}

DecodeResult decode(std::string_view text) {
  DecodeResult result;
  // +1: the outer {"t","v"} object is one level of its own.
  if (text_depth(text) > kMaxDepth + 1) {
    result.error = "value nested deeper than " + std::to_string(kMaxDepth) + " levels";
    return result;
  }
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::exception& e) {
    result.error = std::string("malformed JSON: ") + e.what();
    return result;
  } catch (const std::exception& e) {  // bad_alloc on absurd input: still no throw
    result.error = std::string("cannot decode: ") + e.what();
    return result;
  }
  if (!doc.is_object()) {
    result.error = "expected an object {\"t\": tag, \"v\": value}";
    return result;
  }
  const auto t = doc.find("t");
  if (t == doc.end() || !t->is_string() || t->get_ref<const std::string&>().empty()) {
    result.error = "missing or empty string field \"t\" (the type tag)";
    return result;
  }
  const auto v = doc.find("v");
  if (v == doc.end()) {
    result.error = "missing field \"v\" (the value)";
    return result;
  }
  const ValidationResult valid = validate(*v);
  if (!valid.ok) {
    result.error = valid.error;
    return result;
  }
  result.ok = true;
  result.tag = t->get<std::string>();
  result.value = std::move(*v);
  return result;
}

}  // namespace mailroom::tagged_json
