// The DNS-rebinding guard: which Host headers the server answers. A page of
// evil.example whose name was re-pointed at 127.0.0.1 sends "Host:
// evil.example:<port>"; a client that addressed the server itself sends an IP
// literal or "localhost". So: an empty Host (HTTP/1.0 tools), an IP literal,
// "localhost" and the configured names pass, any port; nothing else does.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mailroom::detail {

bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed_hosts);

}  // namespace mailroom::detail
