#include "mailroom/tagged_json.hpp"

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

namespace {

// Accepts every value, tracks the depth and keeps the first error; builds nothing.
class DepthChecker {
 public:
  explicit DepthChecker(std::size_t max_depth) : max_depth_(max_depth) {}
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(nlohmann::json::number_integer_t) { return true; }
  bool number_unsigned(nlohmann::json::number_unsigned_t) { return true; }
  bool number_float(nlohmann::json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(nlohmann::json::binary_t&) { return true; }
  bool start_object(std::size_t) { return open(); }
  bool key(std::string&) { return true; }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception& e) {
    error_ = e.what();
    return false;
  }
  const std::string& error() const noexcept { return error_; }

 private:
  bool open() {
    if (++depth_ <= max_depth_) return true;
    error_ = "value nested deeper than " + std::to_string(max_depth_) + " levels";
    return false;
  }
  bool close() {
    --depth_;
    return true;
  }
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  std::string error_;
};

}  // namespace

ValidationResult validate_text(std::string_view text, std::size_t max_depth) {
  DepthChecker checker(max_depth);
  try {
    if (nlohmann::json::sax_parse(text.begin(), text.end(), &checker)) return {};
  } catch (const std::exception& e) {  // bad_alloc on absurd input: still a result
    return {false, e.what()};
  }
  return {false, checker.error().empty() ? "malformed JSON" : checker.error()};
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
