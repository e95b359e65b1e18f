// A strict JSON syntax check in one pass that builds nothing: the check every
// persistent capture of a JS payload runs on the encoder's text before the
// record carries it (tagged_json::validate_text). nlohmann's SAX parse did
// the same job at a cost of one std::string per token; this allocates nothing
// for nesting up to kInlineDepth levels.
//
// It accepts what nlohmann::json::parse accepts (RFC 8259; a UTF-8 byte order
// mark at the start; strings valid UTF-8 by RFC 3629; \u surrogates in pairs;
// numbers finite as doubles) with one deliberate difference: a NUL byte
// outside a string is an error here, where nlohmann stops reading at it and
// accepts "1\0garbage" — text that then fails to restore inside a record.
#pragma once

#include <cstddef>
#include <string_view>

namespace mailroom::detail {

struct JsonSyntaxResult {
  bool ok = true;
  bool too_deep = false;   // nested deeper than max_depth (not a syntax error)
  std::size_t offset = 0;  // byte where the check failed
  const char* what = "";   // the rule that failed (static text)
};

JsonSyntaxResult check_json_syntax(std::string_view text, std::size_t max_depth);

}  // namespace mailroom::detail
