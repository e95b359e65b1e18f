// DevtoolsServer: the native DevTools server (optional library
// mailroom_devtools_server, Boost.Beast). One port serves the built panel,
// the DevTools protocol over a WebSocket (/api/ws), Prometheus text
// (/metrics) and /healthz. Closed by default: binds 127.0.0.1, wants a
// per-start token for the panel and the socket, refuses foreign Origins and
// answers writes "unavailable" unless allowed. Costs nothing while nobody is
// attached. See docs/devtools-protocol.md.
//
// Usually not called directly: link this library
// (target_link_libraries(app PRIVATE mailroom::devtools_server)) and set
// ActorSystemOptions::with_devtools(...) or HOCON mailroom.devtools { ... };
// the system then starts the server and stops it at terminate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "mailroom/devtools_endpoint.hpp"
#include "mailroom/devtools_options.hpp"

namespace mailroom {

class ActorSystem;

// The server's options are the core's plain value (with_devtools takes the same).
using DevtoolsServerOptions = DevtoolsOptions;

class DevtoolsServer final : public DevtoolsEndpoint {
 public:
  // Binds and starts the I/O thread; throws std::runtime_error when the
  // address cannot be bound. The server keeps the system alive until stopped.
  static std::unique_ptr<DevtoolsServer> start(std::shared_ptr<ActorSystem> system,
                                               DevtoolsServerOptions options = {});
  // The same for a system that owns the server (with_devtools): it holds no
  // reference, so it must be stopped before the system is destroyed.
  static std::unique_ptr<DevtoolsServer> attach(ActorSystem& system,
                                                DevtoolsServerOptions options = {});
  ~DevtoolsServer() override;  // stops
  DevtoolsServer(const DevtoolsServer&) = delete;
  DevtoolsServer& operator=(const DevtoolsServer&) = delete;

  std::uint16_t port() const noexcept override;
  const std::string& token() const noexcept override;
  std::string url() const override;               // http://127.0.0.1:<port>/?token=...
  std::string metrics_url() const override;       // http://127.0.0.1:<port>/metrics
  std::size_t clients() const noexcept override;  // open WebSockets
  // Closes every connection and joins the I/O thread; idempotent, thread-safe.
  void stop() override;

  struct Impl;

 private:
  explicit DevtoolsServer(std::unique_ptr<Impl> impl);
  static std::unique_ptr<DevtoolsServer> listen(std::shared_ptr<ActorSystem> owner,
                                                ActorSystem& system, DevtoolsServerOptions options);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mailroom
