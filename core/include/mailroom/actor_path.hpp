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

  // Non-empty, at most 255 chars, no '/', no whitespace, not starting with '$',
  // not "." or "..".
  static bool is_valid_name(std::string_view name) noexcept;
  // Throws InvalidActorNameError naming `parent_path` and the name.
  static void validate_name(std::string_view name, std::string_view parent_path);
  // Non-empty, only [A-Za-z0-9_-].
  static bool is_valid_system_name(std::string_view name) noexcept;

  // "mailroom://<system><local>"
  static std::string full(std::string_view system, std::string_view local);
  // The system a full path ("<scheme>://<system>/...") names; "" for a local
  // or malformed path (empty scheme or system).
  static std::string_view system_of(std::string_view path) noexcept;
  // The local spelling: "/user/a" as given, or a full path of `system` (any
  // scheme); trailing '/' dropped. Anything else (another system, no leading
  // '/', "//") → "". Lenient on purpose (filters, selections): a replay
  // target is checked by malformation() first.
  static std::string to_local(std::string_view path, std::string_view system);
  // The same for a full path of any (named) system.
  static std::string to_local(std::string_view path);
  // Why `path` cannot name an actor as written, "" when it can: whitespace
  // before or after it, an empty segment ("//"), or a name is_valid_name
  // refuses ('$' first, whitespace, too long). "." and ".." (relative, not
  // malformed), an empty path or one without a leading '/' are left to the
  // resolution (unresolved). The panel names the same problems as typed.
  static std::string malformation(std::string_view path);
  // A child's local path: child("/user", "a") → "/user/a", child("/", "user") → "/user".
  static std::string child(std::string_view parent, std::string_view name);
  // The parent of a local path ("/" for "/" and the guardians).
  static std::string_view parent_of(std::string_view local) noexcept;
  // The last name of a local path ("" for "/").
  static std::string_view name_of(std::string_view local) noexcept;
  // "/user/a/b" → {"user", "a", "b"}; "/" → {}.
  static std::vector<std::string_view> elements(std::string_view local);
  // `path` is `root` or below it, on a name boundary (both local):
  // "/user/orders" holds "/user/orders/a", never "/user/orders-archive";
  // root "/" (or "", no restriction, as the dead-letter index reads it) holds
  // every non-empty path.
  // Inline: the dead-letter index (below the runtime library) calls it per path.
  static bool in_subtree(std::string_view path, std::string_view root) noexcept {
    if (root.empty() || root == "/") return !path.empty();  // also a foreign path kept as given
    if (path.size() < root.size() || path.compare(0, root.size(), root) != 0) return false;
    return path.size() == root.size() || path[root.size()] == '/';
  }
  // An actor under /user (what a replay may deliver to), not /user itself.
  static bool is_user_actor(std::string_view local);
};

}  // namespace mailroom
