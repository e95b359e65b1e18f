// Private to the mailbox area: the lexical rules of the Prometheus text
// exposition format — what a name may be and how text is escaped.
#pragma once

#include <string>
#include <string_view>

#include "mailroom/metric_labels.hpp"

namespace mailroom::detail {

// OptionsError{"MetricsRegistry", "name", name} unless [a-zA-Z_:][a-zA-Z0-9_:]*.
void check_metric_name(std::string_view name);
// OptionsError{"MetricsRegistry", "label", name} for a label name that is not
// [a-zA-Z_][a-zA-Z0-9_]*, starts with "__" (reserved), or repeats.
void check_label_names(const Labels& labels);

// HELP text: backslash and newline escaped.
std::string escape_help(std::string_view text);
// `{a="x",b="y"}` with backslash, quote and newline escaped; "" for no labels.
std::string format_labels(const Labels& labels);

}  // namespace mailroom::detail
