// DevtoolsExtension: where the optional DevTools server library registers
// itself. Linking mailroom::devtools_server installs a starter at static
// initialisation; ActorSystem::create calls it when with_devtools(...) or HOCON
// mailroom.devtools asks for a server, and refuses to start (with
// DevtoolsNotLinkedError) when nothing is installed.
#pragma once

#include <memory>

#include "mailroom/devtools_endpoint.hpp"
#include "mailroom/devtools_options.hpp"

namespace mailroom {

class ActorSystem;

class DevtoolsExtension {
 public:
  // Starts a server for `system` (bound and listening when it returns, or
  // throws). The server must not outlive the system: the system stops it when
  // it terminates.
  using Starter = std::unique_ptr<DevtoolsEndpoint> (*)(ActorSystem& system,
                                                        const DevtoolsOptions& options);

  // Any thread; the last install wins. nullptr uninstalls.
  static void install(Starter starter) noexcept;
  static Starter starter() noexcept;
};

}  // namespace mailroom
