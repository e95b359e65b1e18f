#include "mailroom/devtools_extension.hpp"

#include <atomic>

namespace mailroom {

namespace {
// Constant-initialised, so an install from another library's static
// initialiser is safe whatever the initialisation order.
std::atomic<DevtoolsExtension::Starter> installed{nullptr};
}  // namespace

void DevtoolsExtension::install(Starter starter) noexcept {
  installed.store(starter, std::memory_order_release);
}

DevtoolsExtension::Starter DevtoolsExtension::starter() noexcept {
  return installed.load(std::memory_order_acquire);
}

}  // namespace mailroom
