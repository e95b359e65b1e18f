#include "host_check.hpp"

#include <algorithm>
#include <cctype>

#include <boost/asio/ip/address.hpp>

namespace mailroom::detail {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

// The host part of "name", "name:port", "1.2.3.4:port", "[::1]:port".
std::string_view host_part(std::string_view header) {
  if (!header.empty() && header.front() == '[') {
    const auto close = header.find(']');
    return close == std::string_view::npos ? header : header.substr(1, close - 1);
  }
  const auto colon = header.rfind(':');
  if (colon != std::string_view::npos && all_digits(header.substr(colon + 1))) {
    return header.substr(0, colon);
  }
  return header;
}

}  // namespace

bool host_allowed(std::string_view host_header, const std::vector<std::string>& allowed_hosts) {
  if (host_header.empty()) return true;
  std::string name = lower(host_part(host_header));
  if (!name.empty() && name.back() == '.') name.pop_back();  // "localhost." is localhost
  if (name == "localhost") return true;
  boost::system::error_code not_an_address;
  boost::asio::ip::make_address(name, not_an_address);
  if (!not_an_address) return true;
  return std::any_of(allowed_hosts.begin(), allowed_hosts.end(),
                     [&](const std::string& allowed) { return lower(allowed) == name; });
}

}  // namespace mailroom::detail
