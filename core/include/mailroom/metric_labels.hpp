// Labels of one metric series, in the order they are written out.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mailroom {

using Labels = std::vector<std::pair<std::string, std::string>>;

}  // namespace mailroom
