#include "mailroom/actor_path.hpp"

#include <cctype>

#include "mailroom/errors.hpp"

namespace mailroom {

bool ActorPath::is_valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > kMaxNameLength || name.front() == '$') return false;
  for (char c : name) {
    if (c == '/' || std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

void ActorPath::validate_name(std::string_view name, std::string_view parent_path) {
  if (is_valid_name(name)) return;
  std::string why = name.empty()                   ? "it is empty"
                    : name.size() > kMaxNameLength ? "it is longer than 255 characters"
                    : name.front() == '$'          ? "it starts with '$' (reserved)"
                                                   : "it contains '/' or whitespace";
  throw InvalidActorNameError("invalid actor name '" + std::string(name) + "' under " +
                              std::string(parent_path) + ": " + why);
}

bool ActorPath::is_valid_system_name(std::string_view name) noexcept {
  if (name.empty()) return false;
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

std::string ActorPath::full(std::string_view system, std::string_view local) {
  std::string out;
  out.reserve(kScheme.size() + 3 + system.size() + local.size());
  out.append(kScheme).append("://").append(system).append(local);
  return out;
}

std::string ActorPath::to_local(std::string_view path, std::string_view system) {
  const auto scheme_end = path.find("://");
  if (scheme_end != std::string_view::npos) {
    std::string_view rest = path.substr(scheme_end + 3);
    const auto slash = rest.find('/');
    std::string_view host = rest.substr(0, slash);
    if (scheme_end == 0 || host != system) return "";
    path = slash == std::string_view::npos ? std::string_view("/") : rest.substr(slash);
  }
  if (path.empty() || path.front() != '/') return "";
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path.find("//") != std::string_view::npos) return "";
  return std::string(path);
}

std::vector<std::string_view> ActorPath::elements(std::string_view local) {
  std::vector<std::string_view> out;
  std::size_t start = 1;
  while (start < local.size()) {
    std::size_t end = local.find('/', start);
    if (end == std::string_view::npos) end = local.size();
    if (end > start) out.push_back(local.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

}  // namespace mailroom
