// The known name a misspelled one most likely meant ("did you mean ...?"):
// the nearest by edit distance (case ignored), when it is near enough that
// the guess helps rather than misleads.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace mailroom::detail {

std::optional<std::string_view> nearest_name(std::string_view given,
                                             const std::vector<std::string_view>& known);

}  // namespace mailroom::detail
