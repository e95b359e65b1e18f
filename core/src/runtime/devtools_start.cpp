#include "devtools_start.hpp"

#include "mailroom/actor_system.hpp"
#include "mailroom/devtools_extension.hpp"
#include "mailroom/devtools_not_linked_error.hpp"
#include "system_core.hpp"

namespace mailroom::detail {

std::optional<DevtoolsOptions> devtools_request(const SystemCore& core) {
  std::optional<DevtoolsOptions> options = core.options().devtools();
  const char* source = "ActorSystemOptions::with_devtools";
  if (!options && DevtoolsOptions::requested_by(core.config())) {
    options = DevtoolsOptions::from_config(core.config());
    source = "HOCON mailroom.devtools";
  }
  if (options && DevtoolsExtension::starter() == nullptr) throw DevtoolsNotLinkedError(source);
  return options;
}

void start_devtools(ActorSystem& system, SystemCore& core, const DevtoolsOptions& options) {
  const DevtoolsExtension::Starter starter = DevtoolsExtension::starter();
  if (starter == nullptr) throw DevtoolsNotLinkedError("ActorSystemOptions::with_devtools");
  std::unique_ptr<DevtoolsEndpoint> endpoint = starter(system, options);
  // The token is in the URL: it goes to the log the developer reads, as the
  // only way to attach (there is no other channel to hand it out).
  core.log().info("DevTools: " + endpoint->url());
  core.log().info("Metrics: " + endpoint->metrics_url());
  core.set_devtools(std::move(endpoint));
}

}  // namespace mailroom::detail

namespace mailroom::detail {

void SystemCore::set_devtools(std::unique_ptr<DevtoolsEndpoint> endpoint) {
  devtools_ = std::move(endpoint);
  // First of the service phases: nobody inspects the tree while it stops.
  shutdown_.add_task(ShutdownPhase::kServiceUnbind, "devtools-server", [this] {
    if (devtools_) devtools_->stop();
  });
}

void SystemCore::release_devtools() {
  std::unique_ptr<DevtoolsEndpoint> endpoint = std::move(devtools_);
  if (endpoint) endpoint->stop();  // waits for a stop already under way elsewhere
}

}  // namespace mailroom::detail
