// Tagged JSON: the on-disk form of a captured payload, {"t": "<type tag>", "v": <value>}.
// The tag names the codec that made the value; the value is any JSON (the JS
// side nests its own {"$t": tag, "v": ...} markers inside it: see
// wasm/js/tagged_json.js). Decoding never throws, and values nested deeper
// than kMaxDepth are refused with a named error rather than risking the stack.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace mailroom::tagged_json {

// 256, not deeper: a Debug (-O0) wasm build overflows the JS engine stack in
// dump() a little past 300 levels, and callers convert values recursively too.
inline constexpr std::size_t kMaxDepth = 256;

struct DecodeResult {
  bool ok = false;
  std::string tag;
  nlohmann::json value;
  std::string error;  // empty when ok
};

struct ValidationResult {
  bool ok = true;
  std::string error;  // empty when ok
};

// Throws std::invalid_argument for an empty tag, a value deeper than
// max_depth or a string that is not valid UTF-8 (refused, never mangled).
std::string encode(std::string_view tag, const nlohmann::json& value);

// Never throws: malformed JSON, a missing or non-string "t", a missing "v",
// or a value that fails validate() give ok = false and a description.
DecodeResult decode(std::string_view text);

// Walks the value without recursion; refuses nesting deeper than max_depth
// (the outer {"t","v"} object not counted).
ValidationResult validate(const nlohmann::json& value, std::size_t max_depth = kMaxDepth);

// Checks JSON text without building it (one pass, no allocation): well-formed
// JSON that nlohmann::json::parse accepts (UTF-8 included; a NUL byte outside a
// string refused, where the parser would stop reading), at most max_depth deep.
// The error names the byte and the rule that failed.
ValidationResult validate_text(std::string_view text, std::size_t max_depth = kMaxDepth);

// Nesting depth of JSON text, counted without parsing (brackets outside strings),
// so hostile text can be refused before a parser sees it.
std::size_t text_depth(std::string_view text);

// How deep a journal record or a protocol frame may nest: a payload value at
// kMaxDepth inside the record's own objects ({"p":{"t","v":...}}).
inline constexpr std::size_t kMaxDocumentDepth = kMaxDepth + 4;

// nlohmann::json::parse, refusing text nested deeper than max_depth before
// the parser sees it (the parser recurses: 100,000 levels overflow the native
// stack). Throws std::invalid_argument "JSON nested deeper than N levels" for
// that, nlohmann::json::parse_error for malformed text. The one door every
// reader of outside JSON (journal records, protocol frames) goes through.
nlohmann::json parse_bounded(std::string_view text, std::size_t max_depth = kMaxDocumentDepth);

}  // namespace mailroom::tagged_json
