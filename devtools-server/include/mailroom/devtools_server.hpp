// DevtoolsServer: the native DevTools server (optional library
// mailroom_devtools_server, Boost.Beast). One port serves the built panel,
// the DevTools protocol over a WebSocket (/api/ws), Prometheus text
// (/metrics) and /healthz. Closed by default: binds 127.0.0.1, wants a
// per-start token for the panel and the socket, refuses foreign Origins and
// answers writes "unavailable" unless allowed. Costs nothing while nobody is
// attached. See docs/devtools-protocol.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mailroom {

class ActorSystem;
class HoconConfig;

struct DevtoolsServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see DevtoolsServer::port())
  bool allow_writes = false;
  // Origins besides the server's own (http://127.0.0.1:<port>,
  // http://localhost:<port>) whose pages may open the WebSocket.
  std::vector<std::string> allowed_origins;
  // The built panel (web/dist): "/" serves its attach.html (else index.html).
  // Empty: "/" says how to build it.
  std::string panel_dir;
  std::string token;                      // empty: a random one per start
  std::string node;                       // the name the panel shows (default: the system name)
  std::size_t max_queued_frames = 256;    // per socket; past it frames are dropped (a gap)
  std::size_t max_dropped_frames = 1024;  // a client that far behind is disconnected

  // mailroom.devtools { port, bind, allow-writes, allowed-origins = "a, b" }
  // over these defaults; bad values throw ConfigError naming the field.
  static DevtoolsServerOptions from_config(const HoconConfig& config);
  static DevtoolsServerOptions from_config(const HoconConfig& config,
                                           DevtoolsServerOptions defaults);
};

class DevtoolsServer {
 public:
  // Binds and starts the I/O thread; throws std::runtime_error when the
  // address cannot be bound. The server keeps the system alive until stopped.
  static std::unique_ptr<DevtoolsServer> start(std::shared_ptr<ActorSystem> system,
                                               DevtoolsServerOptions options = {});
  ~DevtoolsServer();  // stops
  DevtoolsServer(const DevtoolsServer&) = delete;
  DevtoolsServer& operator=(const DevtoolsServer&) = delete;

  std::uint16_t port() const noexcept;
  const std::string& token() const noexcept;
  std::string url() const;               // http://127.0.0.1:<port>/?token=...
  std::string metrics_url() const;       // http://127.0.0.1:<port>/metrics
  std::size_t clients() const noexcept;  // open WebSockets
  // Closes every connection and joins the I/O thread; idempotent.
  void stop();

  struct Impl;

 private:
  explicit DevtoolsServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace mailroom
