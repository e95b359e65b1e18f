// The fields each options family accepts from a dynamically typed front door
// (the JS API, a JSON test table) and the JS type each must have. The JS
// wrapper reads this table from the core, so "which type does a field take"
// is decided here once, like every value rule behind it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mailroom/errors.hpp"

namespace mailroom {

enum class OptionType { kNumber, kString, kBoolean, kFunction, kObject };

// "number", "string", "boolean", "function", "object" (the JS typeof names)
std::string_view to_string(OptionType type) noexcept;

struct OptionField {
  std::string_view family;  // "ActorOptions", "BoundedMailbox", ...
  std::string_view field;   // "mailboxCapacity", "capacity", ...
  OptionType type;
};

// Every family's fields, in the order the front doors apply them.
const std::vector<OptionField>& option_schema();

// The field, or null when the family does not name it.
const OptionField* find_option_field(std::string_view family, std::string_view field) noexcept;

// A field the family does not name is refused, never ignored: a misspelled
// key (mailboxCapactiy) would otherwise leave the setting it meant at its
// default without a word. OptionsError{family, field, value_text, "is not a
// <family> field (did you mean mailboxCapacity?)"}, or nullopt for a known
// field (or a family this table does not list).
std::optional<OptionsError> unknown_option_field(std::string_view family, std::string_view field,
                                                 std::string value_text);
void check_option_field_known(std::string_view family, std::string_view field,
                              std::string value_text);

// Checks the JS type of a given (set, not undefined/null) value. `given` is
// the JS typeof, with "null" and "array" told apart from "object";
// `value_text` is how the value reads in the error. Throws
// OptionsError{family, field, value_text, "must be a <type>, got <given>"}.
void check_option_type(std::string_view family, std::string_view field, std::string_view given,
                       std::string value_text);
// The same error as a value, when the type is wrong (no throw: the JS
// wrapper asks for it on every wrong type it finds).
std::optional<OptionsError> option_type_mismatch(std::string_view family, std::string_view field,
                                                 std::string_view given, std::string value_text);

}  // namespace mailroom
