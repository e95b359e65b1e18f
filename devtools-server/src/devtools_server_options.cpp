// DevtoolsServerOptions from HOCON (mailroom.devtools). Kept apart from the
// Beast translation unit so it compiles in a second.
#include <cmath>
#include <sstream>

#include "mailroom/devtools_server.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {

DevtoolsServerOptions DevtoolsServerOptions::from_config(const HoconConfig& config) {
  return from_config(config, DevtoolsServerOptions());
}

DevtoolsServerOptions DevtoolsServerOptions::from_config(const HoconConfig& config,
                                                         DevtoolsServerOptions out) {
  if (auto bind = config.get_string("mailroom.devtools.bind")) out.bind = *bind;
  if (auto port = config.get_number("mailroom.devtools.port")) {
    if (*port < 0 || *port > 65535 || std::floor(*port) != *port) {
      throw OptionsError("DevtoolsServer", "port", std::to_string(*port),
                         "mailroom.devtools.port must be an integer in [0, 65535]");
    }
    out.port = static_cast<std::uint16_t>(*port);
  }
  if (auto writes = config.get_bool("mailroom.devtools.allow-writes")) out.allow_writes = *writes;
  if (auto origins = config.get_string("mailroom.devtools.allowed-origins")) {
    std::stringstream list(*origins);
    for (std::string item; std::getline(list, item, ',');) {
      const auto first = item.find_first_not_of(" \t");
      if (first == std::string::npos) continue;
      out.allowed_origins.push_back(item.substr(first, item.find_last_not_of(" \t") - first + 1));
    }
  }
  return out;
}

}  // namespace mailroom
