// DevtoolsOptions: how the native DevTools server listens. A plain value the
// core keeps for ActorSystemOptions::with_devtools and HOCON mailroom.devtools;
// the server itself is the optional mailroom_devtools_server library
// (docs/devtools-protocol.md), so the core never links a network stack.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mailroom {

class HoconConfig;

struct DevtoolsOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 0;  // 0: any free port (see DevtoolsEndpoint::port())
  bool allow_writes = false;
  // Origins besides the server's own (http://127.0.0.1:<port>,
  // http://localhost:<port>) whose pages may open the WebSocket.
  std::vector<std::string> allowed_origins;
  // Host names (the request's Host header, port aside, any case) besides
  // "localhost" and IP literals that requests may name: every other name is
  // refused with 403, so a DNS-rebinding page cannot read /metrics.
  std::vector<std::string> allowed_hosts;
  // The built panel (web/dist-attach): "/" serves its attach.html (else
  // index.html). Empty: the installed panel (share/mailroom/devtools-panel of
  // the prefix the program found Mailroom in, or beside the program); when
  // there is none, "/" says how to build it.
  std::string panel_dir;
  // Empty: a random one per start (printed). Else 16+ characters of
  // [A-Za-z0-9_-], e.g. to keep the panel's URL across restarts.
  std::string token;
  std::string node;                       // the name the panel shows (default: the system name)
  std::size_t max_queued_frames = 256;    // per socket; past it frames are dropped (a gap)
  std::size_t max_dropped_frames = 1024;  // a client that far behind is disconnected
  // Bytes queued for one socket (frames written but not yet taken by the
  // client); a client past it is disconnected with a log line, so readers
  // that stop reading cannot grow the server (one frame is always accepted).
  std::size_t max_queued_bytes = std::size_t{16} << 20;

  // mailroom.devtools { port, bind, allow-writes, allowed-origins = "a, b",
  // allowed-hosts = "a, b", max-queued-bytes, panel-dir } over `defaults`; a bad value throws
  // OptionsError naming the field (a wrongly typed one ConfigError with its line and column).
  static DevtoolsOptions from_config(const HoconConfig& config);
  static DevtoolsOptions from_config(const HoconConfig& config, DevtoolsOptions defaults);
  // Whether the HOCON asks for the server: a mailroom.devtools block whose
  // `enabled` (default true) is not false.
  static bool requested_by(const HoconConfig& config);
};

}  // namespace mailroom
