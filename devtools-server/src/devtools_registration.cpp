// Links the server into ActorSystemOptions::with_devtools: at static
// initialisation this library installs its starter in the core's
// DevtoolsExtension. A static archive member nobody references is never
// linked, so the CMake target tells the linker that the symbol below is
// needed (-u mailroom_devtools_server_linked); every program that links
// mailroom::devtools_server therefore gets this file and its initialiser.
#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_extension.hpp"
#include "mailroom/devtools_server.hpp"

extern "C" {
// Read by nothing: only its presence matters (see above).
extern const int mailroom_devtools_server_linked;
const int mailroom_devtools_server_linked = 1;
}

namespace mailroom {
namespace {

std::unique_ptr<DevtoolsEndpoint> start_server(ActorSystem& system,
                                               const DevtoolsOptions& options) {
  return DevtoolsServer::attach(system, options);
}

[[maybe_unused]] const bool installed = [] {
  DevtoolsExtension::install(&start_server);
  return true;
}();

}  // namespace
}  // namespace mailroom
