// DevtoolsOptions from HOCON (mailroom.devtools). In the core, not in the
// server library, so a system can see that HOCON asks for a server the
// program did not link (DevtoolsNotLinkedError) instead of ignoring it.
#include "mailroom/devtools_options.hpp"

#include <cmath>
#include <sstream>

#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/option_number.hpp"

namespace mailroom {
namespace {

// "a, b" as ["a", "b"] (blank items skipped).
void append_list(const std::string& text, std::vector<std::string>& out) {
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) {
    const auto first = item.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    out.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
  }
}

}  // namespace

DevtoolsOptions DevtoolsOptions::from_config(const HoconConfig& config) {
  return from_config(config, DevtoolsOptions());
}

DevtoolsOptions DevtoolsOptions::from_config(const HoconConfig& config, DevtoolsOptions out) {
  if (auto bind = config.get_string("mailroom.devtools.bind")) {
    if (bind->empty()) {
      throw OptionsError("DevtoolsOptions", "bind", *bind,
                         "mailroom.devtools.bind must name an address (127.0.0.1 by default)");
    }
    out.bind = *bind;
  }
  if (auto port = config.get_number("mailroom.devtools.port")) {
    if (*port < 0 || *port > 65535 || std::floor(*port) != *port) {
      throw OptionsError("DevtoolsOptions", "port",
                         config.find("mailroom.devtools.port")->to_text(),
                         "mailroom.devtools.port must be an integer in [0, 65535]");
    }
    out.port = static_cast<std::uint16_t>(*port);
  }
  if (auto writes = config.get_bool("mailroom.devtools.allow-writes")) out.allow_writes = *writes;
  if (auto origins = config.get_string("mailroom.devtools.allowed-origins")) {
    append_list(*origins, out.allowed_origins);
  }
  if (auto hosts = config.get_string("mailroom.devtools.allowed-hosts")) {
    append_list(*hosts, out.allowed_hosts);
  }
  if (auto bytes = config.get_number("mailroom.devtools.max-queued-bytes")) {
    // The shared whole-number rule (the same bound on every target).
    out.max_queued_bytes = static_cast<std::size_t>(
        validate_whole_number(*bytes, "DevtoolsOptions", "max-queued-bytes", 1, kMaxOptionCount,
                              "a whole number of bytes in [1, 4294967295]"));
  }
  if (auto dir = config.get_string("mailroom.devtools.panel-dir")) out.panel_dir = *dir;
  return out;
}

bool DevtoolsOptions::requested_by(const HoconConfig& config) {
  const HoconValue* block = config.find("mailroom.devtools");
  if (block == nullptr || block->is_null()) return false;
  if (!block->is_object()) {
    throw OptionsError("DevtoolsOptions", "mailroom.devtools", block->to_text(),
                       "mailroom.devtools must be a block: mailroom.devtools { port = 0 }");
  }
  return config.get_bool("mailroom.devtools.enabled").value_or(true);
}

}  // namespace mailroom
