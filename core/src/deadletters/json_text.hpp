// JsonText: appends JSON tokens to a string, byte for byte as
// nlohmann::json::dump(-1, ' ', false, error_handler_t::replace) writes them,
// so the journal record is written without building a nlohmann::json and
// reads the same as before.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace mailroom::detail {

// A JSON string literal: the escapes nlohmann writes ("\n", "\u001f", ...),
// UTF-8 copied as it is; a string with invalid UTF-8 is written by nlohmann
// itself (each bad sequence replaced by U+FFFD, exactly as before).
void append_json_string(std::string& out, std::string_view text);
void append_json_number(std::string& out, std::uint64_t value);
void append_json_number(std::string& out, std::int64_t value);

}  // namespace mailroom::detail
