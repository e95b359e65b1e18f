// A minimal HTTP/1.1 and WebSocket (RFC 6455) client on POSIX sockets, so the
// server's test talks to it like a browser would without compiling Beast twice.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mailroom::testing {

struct HttpReply {
  int status = 0;  // 0: no answer
  std::string headers;
  std::string body;
};

// A TCP connection to 127.0.0.1:port, or -1. receive_buffer_bytes > 0
// shrinks the socket's receive buffer (set before connect).
int connect_loopback(std::uint16_t port, int receive_buffer_bytes = 0);

// GET target on 127.0.0.1:port (Connection: close), with the Host header
// given (default "127.0.0.1:<port>").
HttpReply http_get(std::uint16_t port, const std::string& target, const std::string& host = "");

class WsClient {
 public:
  WsClient() = default;
  ~WsClient();
  WsClient(const WsClient&) = delete;
  WsClient& operator=(const WsClient&) = delete;

  // Opens the socket and sends the upgrade; returns the HTTP status of the
  // answer (101 when the server accepted the WebSocket). receive_buffer_bytes
  // > 0 shrinks the socket's receive buffer (a client that falls behind sooner).
  int connect(std::uint16_t port, const std::string& target, const std::string& origin = "",
              int receive_buffer_bytes = 0);
  void send(const std::string& text);  // one masked text frame
  // The next text message, or nullopt on close, error or after timeout_ms.
  std::optional<std::string> receive(int timeout_ms = 5000);
  // True when the server closed the connection within timeout_ms.
  bool closed_by_server(int timeout_ms = 5000);
  void close();

 private:
  bool read_exact(void* out, std::size_t n, int timeout_ms);
  int fd_ = -1;
  bool eof_ = false;     // the server closed the TCP connection
  std::string pending_;  // bytes read past the handshake
};

}  // namespace mailroom::testing
