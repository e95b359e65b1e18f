// Recipient-path helpers for the dead-letter filter: normalising a filter path
// and matching a subtree on a segment boundary.
#pragma once

#include <string>
#include <string_view>

namespace mailroom::detail {

// "scheme://system/user/x" -> "/user/x"; "scheme://system" -> "/"; a local
// path stays as it is; a trailing '/' is dropped (except for the root).
std::string strip_scheme_and_system(std::string_view path);

// path is wanted itself or below it: "/user/orders" matches "/user/orders/a",
// never "/user/orders-archive". wanted "/" matches everything.
bool in_subtree(std::string_view path, std::string_view wanted) noexcept;

}  // namespace mailroom::detail
