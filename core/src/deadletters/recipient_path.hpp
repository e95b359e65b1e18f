// Normalising a dead-letter filter path (subtrees: ActorPath::in_subtree).
#pragma once

#include <string>
#include <string_view>

namespace mailroom::detail {

// "scheme://system/user/x" -> "/user/x"; "scheme://system" -> "/"; a local
// path stays as it is; a trailing '/' is dropped (except for the root).
std::string strip_scheme_and_system(std::string_view path);

}  // namespace mailroom::detail
