#include "ws_client.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <vector>

namespace mailroom::testing {

int connect_loopback(std::uint16_t port, int receive_buffer_bytes) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  if (receive_buffer_bytes > 0) {  // before connect: it bounds the window the server sees
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer_bytes, sizeof receive_buffer_bytes);
  }
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

namespace {

void write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

// Reads until the end of the HTTP head; what follows stays in `rest`.
std::string read_head(int fd, std::string& rest, int timeout_ms) {
  std::string data;
  char buf[4096];
  while (data.find("\r\n\r\n") == std::string::npos) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  const auto end = data.find("\r\n\r\n");
  if (end == std::string::npos) return data;
  rest = data.substr(end + 4);
  return data.substr(0, end + 4);
}

int status_of(const std::string& head) {
  if (head.size() < 12 || head.compare(0, 5, "HTTP/") != 0) return 0;
  return std::atoi(head.c_str() + 9);
}

}  // namespace

HttpReply http_get(std::uint16_t port, const std::string& target, const std::string& host) {
  HttpReply reply;
  const int fd = connect_loopback(port);
  if (fd < 0) return reply;
  const std::string named = host.empty() ? "127.0.0.1:" + std::to_string(port) : host;
  write_all(fd, "GET " + target + " HTTP/1.1\r\nHost: " + named + "\r\nConnection: close\r\n\r\n");
  std::string rest;
  reply.headers = read_head(fd, rest, 5000);
  reply.status = status_of(reply.headers);
  reply.body = rest;
  char buf[4096];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    reply.body.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return reply;
}

WsClient::~WsClient() {
  close();
}

int WsClient::connect(std::uint16_t port, const std::string& target, const std::string& origin,
                      int receive_buffer_bytes) {
  close();
  fd_ = connect_loopback(port, receive_buffer_bytes);
  if (fd_ < 0) return 0;
  std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                        "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                        "Sec-WebSocket-Version: 13\r\n";
  if (!origin.empty()) request += "Origin: " + origin + "\r\n";
  write_all(fd_, request + "\r\n");
  const std::string head = read_head(fd_, pending_, 5000);
  return status_of(head);
}

void WsClient::send(const std::string& text) {
  std::string frame;
  frame.push_back(static_cast<char>(0x81));  // FIN, text
  const std::size_t n = text.size();
  if (n < 126) {
    frame.push_back(static_cast<char>(0x80 | n));
  } else if (n < 65536) {
    frame.push_back(static_cast<char>(0x80 | 126));
    frame.push_back(static_cast<char>(n >> 8));
    frame.push_back(static_cast<char>(n & 0xff));
  } else {
    frame.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) frame.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  }
  std::random_device device;
  unsigned char mask[4];
  for (auto& m : mask) m = static_cast<unsigned char>(device());
  frame.append(reinterpret_cast<char*>(mask), 4);
  for (std::size_t i = 0; i < n; ++i) frame.push_back(static_cast<char>(text[i] ^ mask[i % 4]));
  write_all(fd_, frame);
}

bool WsClient::read_exact(void* out, std::size_t n, int timeout_ms) {
  auto* dst = static_cast<char*>(out);
  std::size_t got = 0;
  const std::size_t from_pending = std::min(n, pending_.size());
  std::memcpy(dst, pending_.data(), from_pending);
  pending_.erase(0, from_pending);
  got = from_pending;
  while (got < n) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    const ssize_t r = ::recv(fd_, dst + got, n - got, 0);
    if (r <= 0) {
      eof_ = true;
      return false;
    }
    got += static_cast<std::size_t>(r);
  }
  return true;
}

std::optional<std::string> WsClient::receive(int timeout_ms) {
  if (fd_ < 0) return std::nullopt;
  std::string message;
  for (;;) {
    unsigned char head[2];
    if (!read_exact(head, 2, timeout_ms)) return std::nullopt;
    const int opcode = head[0] & 0x0f;
    const bool fin = (head[0] & 0x80) != 0;
    std::uint64_t len = head[1] & 0x7f;
    if (len == 126) {
      unsigned char ext[2];
      if (!read_exact(ext, 2, timeout_ms)) return std::nullopt;
      len = (std::uint64_t(ext[0]) << 8) | ext[1];
    } else if (len == 127) {
      unsigned char ext[8];
      if (!read_exact(ext, 8, timeout_ms)) return std::nullopt;
      len = 0;
      for (unsigned char b : ext) len = (len << 8) | b;
    }
    std::string payload(len, '\0');
    if (len > 0 && !read_exact(payload.data(), len, timeout_ms)) return std::nullopt;
    if (opcode == 0x8) return std::nullopt;        // close
    if (opcode == 0x9 || opcode == 0xA) continue;  // ping / pong
    message += payload;
    if (fin) return message;
  }
}

bool WsClient::closed_by_server(int timeout_ms) {
  if (fd_ < 0) return true;
  for (;;) {
    unsigned char head[2];
    if (!read_exact(head, 2, timeout_ms)) return eof_;
    if ((head[0] & 0x0f) == 0x8) return true;
    std::uint64_t len = head[1] & 0x7f;
    if (len >= 126) {
      unsigned char ext[8];
      const std::size_t n = len == 126 ? 2 : 8;
      if (!read_exact(ext, n, timeout_ms)) return eof_;
      len = 0;
      for (std::size_t i = 0; i < n; ++i) len = (len << 8) | ext[i];
    }
    std::string skip(len, '\0');
    if (len > 0 && !read_exact(skip.data(), len, timeout_ms)) return eof_;
  }
}

void WsClient::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  eof_ = false;
  pending_.clear();
}

}  // namespace mailroom::testing
