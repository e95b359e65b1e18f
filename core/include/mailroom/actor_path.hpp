// ActorPath: the rules for actor names and the two spellings of a path —
// full ("mailroom://orders/user/a/b") and local ("/user/a/b").
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mailroom {

class ActorPath {
 public:
  static constexpr std::string_view kScheme = "mailroom";
  static constexpr std::size_t kMaxNameLength = 255;

  // Non-empty, at most 255 chars, no '/', no whitespace, not starting with '$'.
  static bool is_valid_name(std::string_view name) noexcept;
  // Throws InvalidActorNameError naming `parent_path` and the name.
  static void validate_name(std::string_view name, std::string_view parent_path);
  // Non-empty, only [A-Za-z0-9_-].
  static bool is_valid_system_name(std::string_view name) noexcept;

  // "mailroom://<system><local>"
  static std::string full(std::string_view system, std::string_view local);
  // Accepts "/user/a", "mailroom://<system>/user/a" and any "<scheme>://<system>/..."
  // whose system matches; drops a trailing '/'. Anything else → "".
  static std::string to_local(std::string_view path, std::string_view system);
  // "/user/a/b" → {"user", "a", "b"}; "/" → {}.
  static std::vector<std::string_view> elements(std::string_view local);
};

}  // namespace mailroom
