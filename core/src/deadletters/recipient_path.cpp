#include "recipient_path.hpp"

namespace mailroom::detail {

std::string strip_scheme_and_system(std::string_view path) {
  if (auto scheme = path.find("://"); scheme != std::string_view::npos) {
    auto slash = path.find('/', scheme + 3);
    path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
  }
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  return std::string(path);
}

}  // namespace mailroom::detail
