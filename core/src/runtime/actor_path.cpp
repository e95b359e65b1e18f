#include "mailroom/actor_path.hpp"

#include <cctype>
#include <optional>

#include "mailroom/errors.hpp"

namespace mailroom {
namespace {

// Well-formed UTF-8 (Unicode table 3-7): a name is kept and compared as
// written, so a byte sequence no text can have (an encoded lone surrogate,
// an overlong form, a cut sequence) would be a name no other target can spell.
bool well_formed_utf8(std::string_view text) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const auto* end = p + text.size();
  while (p < end) {
    const unsigned char c = *p;
    int more = 0;
    unsigned char low = 0x80, high = 0xBF;  // the second byte's range
    if (c < 0x80) {
      ++p;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      more = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      more = 2;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;  // U+D800..U+DFFF are surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      more = 3;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (end - p <= more) return false;
    if (p[1] < low || p[1] > high) return false;
    for (int i = 2; i <= more; ++i) {
      if (p[i] < 0x80 || p[i] > 0xBF) return false;
    }
    p += more + 1;
  }
  return true;
}

}  // namespace

bool ActorPath::is_valid_name(std::string_view name) noexcept {
  if (name.empty() || name.size() > kMaxNameLength || name.front() == '$') return false;
  // "." and ".." would read as "this actor" and "the parent" in a selection.
  if (name == "." || name == "..") return false;
  for (char c : name) {
    if (c == '/' || std::isspace(static_cast<unsigned char>(c))) return false;
  }
  return well_formed_utf8(name);
}

void ActorPath::validate_name(std::string_view name, std::string_view parent_path) {
  if (is_valid_name(name)) return;
  std::string why = name.empty()                   ? "it is empty"
                    : name.size() > kMaxNameLength ? "it is longer than 255 characters"
                    : name.front() == '$'          ? "it starts with '$' (reserved)"
                    : name == "." || name == ".."  ? "'.' and '..' are reserved for selections"
                    : !well_formed_utf8(name)
                        ? "it is not well-formed UTF-8 (e.g. an encoded lone surrogate)"
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

namespace {
struct FullPath {
  std::string_view system;
  std::string_view rest;  // "/..." ("/" when the path ends at the system)
};
// "<scheme>://<system>[/...]" with a non-empty scheme that holds no '/'.
std::optional<FullPath> split_full(std::string_view path) noexcept {
  const auto scheme_end = path.find("://");
  if (scheme_end == std::string_view::npos || scheme_end == 0 ||
      path.substr(0, scheme_end).find('/') != std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view after = path.substr(scheme_end + 3);
  const auto slash = after.find('/');
  if (slash == std::string_view::npos) return FullPath{after, "/"};
  return FullPath{after.substr(0, slash), after.substr(slash)};
}

bool space(char c) noexcept {
  return std::isspace(static_cast<unsigned char>(c)) != 0;
}

// Whitespace around a path is never part of it (a name holds none).
bool padded(std::string_view path) noexcept {
  return !path.empty() && (space(path.front()) || space(path.back()));
}

// A local path without its trailing '/', or "" when it is not one.
std::string normal_local(std::string_view path) {
  if (path.empty() || path.front() != '/') return "";
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path.find("//") != std::string_view::npos) return "";
  return std::string(path);
}
}  // namespace

std::string_view ActorPath::system_of(std::string_view path) noexcept {
  const auto parts = split_full(path);
  return parts ? parts->system : std::string_view();
}

std::string ActorPath::to_local(std::string_view path, std::string_view system) {
  if (const auto parts = split_full(path)) {
    if (parts->system != system) return "";
    return normal_local(parts->rest);
  }
  if (path.find("://") != std::string_view::npos) return "";
  return normal_local(path);
}

std::string ActorPath::to_local(std::string_view path) {
  if (const auto parts = split_full(path)) {
    return parts->system.empty() ? "" : normal_local(parts->rest);
  }
  if (path.find("://") != std::string_view::npos) return "";
  return normal_local(path);
}

std::string ActorPath::malformation(std::string_view path) {
  if (padded(path)) return "spaces before or after it";
  std::string_view local = path;
  if (const auto parts = split_full(path)) {
    local = parts->rest;
  } else if (path.find("://") != std::string_view::npos) {
    return "";
  }
  if (local.empty() || local.front() != '/') return "";
  while (local.size() > 1 && local.back() == '/') local.remove_suffix(1);
  for (std::size_t start = 1; start < local.size();) {
    std::size_t end = local.find('/', start);
    if (end == std::string_view::npos) end = local.size();
    const std::string_view name = local.substr(start, end - start);
    start = end + 1;
    if (name == "." || name == ".." || is_valid_name(name)) continue;
    if (name.empty()) return "an empty segment (//)";
    if (name.front() == '$') return "\"" + std::string(name) + "\" starts with '$' (reserved)";
    if (name.size() > kMaxNameLength) return "a name longer than 255 characters";
    return "whitespace in \"" + std::string(name) + "\"";
  }
  return "";
}

std::string ActorPath::child(std::string_view parent, std::string_view name) {
  std::string out;
  out.reserve(parent.size() + 1 + name.size());
  out.append(parent == "/" ? std::string_view() : parent).append("/").append(name);
  return out;
}

std::string_view ActorPath::parent_of(std::string_view local) noexcept {
  const auto slash = local.rfind('/');
  return slash == std::string_view::npos || slash == 0 ? std::string_view("/")
                                                       : local.substr(0, slash);
}

std::string_view ActorPath::name_of(std::string_view local) noexcept {
  const auto slash = local.rfind('/');
  return slash == std::string_view::npos ? local : local.substr(slash + 1);
}

bool ActorPath::is_user_actor(std::string_view local) {
  const auto names = elements(local);
  return names.size() >= 2 && names.front() == "user";
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
