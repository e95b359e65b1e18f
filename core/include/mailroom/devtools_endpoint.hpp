// DevtoolsEndpoint: a running DevTools server as the core sees it (the
// mailroom_devtools_server library implements it). ActorSystem::devtools()
// hands it out so a program can print where to attach.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace mailroom {

class DevtoolsEndpoint {
 public:
  virtual ~DevtoolsEndpoint() = default;
  virtual std::uint16_t port() const noexcept = 0;
  virtual const std::string& token() const noexcept = 0;
  virtual std::string url() const = 0;               // http://127.0.0.1:<port>/?token=...
  virtual std::string metrics_url() const = 0;       // http://127.0.0.1:<port>/metrics
  virtual std::size_t clients() const noexcept = 0;  // open WebSockets
  // Closes every connection and joins the server's thread. Idempotent and
  // thread-safe: a second caller returns once the first one's stop is done.
  virtual void stop() = 0;
};

}  // namespace mailroom
