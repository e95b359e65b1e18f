// Starting the DevTools server ActorSystemOptions::with_devtools or HOCON
// mailroom.devtools asks for, through the starter the optional library
// installed (DevtoolsExtension).
#pragma once

#include <optional>

#include "mailroom/devtools_options.hpp"

namespace mailroom {
class ActorSystem;
}

namespace mailroom::detail {

class SystemCore;

// The options of the server to start, or nullopt when none is asked for.
// Throws DevtoolsNotLinkedError when one is asked for and no library installed
// a starter; OptionsError/ConfigError for a bad mailroom.devtools block.
std::optional<DevtoolsOptions> devtools_request(const SystemCore& core);

// Starts it (throws what the server throws, e.g. the port is taken), logs
// where to attach and hands it to the core, which stops it at terminate.
void start_devtools(ActorSystem& system, SystemCore& core, const DevtoolsOptions& options);

}  // namespace mailroom::detail
