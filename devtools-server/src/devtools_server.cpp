// DevtoolsServer on Boost.Beast: the only translation unit that includes
// Beast (it takes ~30 s to compile; everything else stays fast). One I/O
// thread runs the acceptor, the HTTP connections and the WebSockets; each
// WebSocket drives one DevtoolsSession and owns one bounded send queue with
// at most one async_write outstanding.
#include "mailroom/devtools_server.hpp"

#include <algorithm>
#include <atomic>
#include <deque>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "host_check.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/devtools_session.hpp"
#include "mailroom/metrics_registry.hpp"
#include "panel_location.hpp"

namespace mailroom {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t kMaxRequestBytes = 16 * 1024;
constexpr std::size_t kMaxClientFrameBytes = 64 * 1024;

std::string random_token() {
  std::random_device device;
  static const char* hex = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 32; ++i) token.push_back(hex[device() % 16]);
  return token;
}

bool same_text(std::string_view a, std::string_view b) {  // no early exit on the first difference
  if (a.size() != b.size()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

struct Target {
  std::string path;
  std::string token;
};

Target parse_target(std::string_view target) {
  Target out;
  const auto q = target.find('?');
  out.path = std::string(target.substr(0, q));
  if (q == std::string_view::npos) return out;
  std::string_view query = target.substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    std::string_view pair = query.substr(0, amp);
    if (pair.substr(0, 6) == "token=") out.token = std::string(pair.substr(6));
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::string content_type(const std::string& path) {
  auto ends = [&](std::string_view ext) {
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  if (ends(".html")) return "text/html; charset=utf-8";
  if (ends(".js") || ends(".mjs")) return "text/javascript; charset=utf-8";
  if (ends(".css")) return "text/css; charset=utf-8";
  if (ends(".wasm")) return "application/wasm";
  if (ends(".json") || ends(".map")) return "application/json";
  if (ends(".svg")) return "image/svg+xml";
  if (ends(".png")) return "image/png";
  return "application/octet-stream";
}

// A path inside the panel folder, or empty when it could leave it.
std::string static_file(const std::string& root, const std::string& path) {
  if (root.empty() || path.empty() || path.front() != '/') return {};
  if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos ||
      path.find('\0') != std::string::npos) {
    return {};
  }
  return root + path;
}

std::optional<std::string> read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

class WsConnection;

struct DevtoolsServer::Impl {
  std::shared_ptr<ActorSystem> owner;  // empty when the system owns the server (attach)
  ActorSystem* system = nullptr;
  DevtoolsServerOptions options;
  net::io_context ioc{1};
  tcp::acceptor acceptor{ioc};
  net::steady_timer accept_timer{ioc};  // the pause after a failed accept
  std::int64_t accept_backoff_ms = 0;   // 0: accepting normally
  std::thread thread;
  std::uint16_t port = 0;
  std::atomic<std::size_t> clients{0};
  std::atomic<bool> wake_pending{false};
  std::once_flag stopped;

  // What the queue's change listener reaches: cleared (under its lock) when
  // the server stops, so a listener call racing stop() touches nothing freed.
  struct Waker {
    std::mutex mutex;
    Impl* impl = nullptr;
  };
  std::shared_ptr<Waker> waker = std::make_shared<Waker>();

  // I/O thread only.
  std::set<std::shared_ptr<WsConnection>> sockets;
  std::size_t dead_letter_watchers = 0;
  std::uint64_t listener_id = 0;
  std::atomic<bool> listening{false};

  bool origin_allowed(std::string_view origin) const {
    if (origin.empty()) return true;  // not a browser: the token alone decides
    const std::string own = ":" + std::to_string(port);
    for (const std::string& mine :
         {"http://127.0.0.1" + own, "http://localhost" + own, "http://[::1]" + own}) {
      if (origin == mine) return true;
    }
    for (const std::string& allowed : options.allowed_origins) {
      if (origin == allowed) return true;
    }
    return false;
  }

  void watch_dead_letters(bool on);
  void wake_dead_letter_watchers();
  void accept();
};

// ------------------------------------------------------------ WebSocket --

class WsConnection : public std::enable_shared_from_this<WsConnection> {
 public:
  WsConnection(DevtoolsServer::Impl& server, tcp::socket socket)
      : server_(server), ws_(std::move(socket)), timer_(server.ioc) {
    DevtoolsSessionOptions o;
    o.allow_writes = server.options.allow_writes;
    o.node = server.options.node;
    session_ = std::make_unique<DevtoolsSession>(
        *server.system, o, [this](std::string frame) { enqueue(std::move(frame)); });
  }

  void start(http::request<http::string_body> request) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(kMaxClientFrameBytes);
    ws_.async_accept(request, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return;
      self->server_.sockets.insert(self);
      self->server_.clients.fetch_add(1);
      self->open_ = true;
      self->read();
    });
  }

  void poll() {
    if (closed_) return;
    session_->poll();
    schedule();
  }

  bool watches_dead_letters() const { return watching_; }

  void shut() {
    if (closed_) return;
    closed_ = true;
    timer_.cancel();
    set_watching(false);
    if (open_) server_.clients.fetch_sub(1);
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    server_.sockets.erase(shared_from_this());
  }

 private:
  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec) return self->shut();
      const std::string text = beast::buffers_to_string(self->buffer_.data());
      self->buffer_.consume(self->buffer_.size());
      self->session_->receive(text);
      self->set_watching(self->session_->watches_dead_letters());
      if (self->session_->should_close()) {
        self->closing_ = true;
        if (!self->writing_) self->close_gracefully();
        return;
      }
      self->schedule();
      self->read();
    });
  }

  void enqueue(std::string frame) {
    if (closed_) return;
    if (!queue_.empty() && queued_bytes_ + frame.size() > server_.options.max_queued_bytes) {
      // Counted in bytes, not frames: a few big frames (snapshot pages) for a
      // client that stopped reading must not grow the server.
      server_.system->log().warn("devtools: a client stopped reading (" +
                                 std::to_string(queued_bytes_) +
                                 " bytes queued, over max-queued-bytes): disconnected");
      return shut();
    }
    if (queue_.size() >= server_.options.max_queued_frames) {
      // A slow client loses frames (a gap in seq) instead of growing memory.
      session_->resync();
      if (++dropped_ > server_.options.max_dropped_frames) shut();
      return;
    }
    queued_bytes_ += frame.size();
    queue_.push_back(std::move(frame));
    if (!writing_) write_next();
  }

  void write_next() {
    writing_ = true;
    ws_.text(true);
    ws_.async_write(net::buffer(queue_.front()),
                    [self = shared_from_this()](beast::error_code ec, std::size_t) {
                      if (ec) return self->shut();
                      self->queued_bytes_ -= self->queue_.front().size();
                      self->queue_.pop_front();
                      self->dropped_ = 0;  // it is keeping up again
                      if (!self->queue_.empty()) return self->write_next();
                      self->writing_ = false;
                      if (self->closing_) self->close_gracefully();
                    });
  }

  void close_gracefully() {
    ws_.async_close(websocket::close_code::policy_error,
                    [self = shared_from_this()](beast::error_code) { self->shut(); });
  }

  void schedule() {
    if (closed_) return;
    const std::int64_t in = session_->next_poll_in_ms();
    const std::uint64_t generation = ++generation_;
    if (in < 0) {
      timer_.cancel();
      return;
    }
    timer_.expires_after(std::chrono::milliseconds(in));
    timer_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
      if (ec || generation != self->generation_) return;
      self->poll();
    });
  }

  void set_watching(bool on) {
    if (on == watching_ || (on && closed_)) return;
    watching_ = on;
    server_.watch_dead_letters(on);
    // A letter captured between the snapshot and the listener's start would
    // wait for the interval: look once now that the listener is on.
    if (on) session_->poll();
  }

  DevtoolsServer::Impl& server_;
  websocket::stream<beast::tcp_stream> ws_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::unique_ptr<DevtoolsSession> session_;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;  // the sum of queue_'s sizes
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
  bool open_ = false;  // accepted and counted in clients
  bool watching_ = false;
  std::size_t dropped_ = 0;
  std::uint64_t generation_ = 0;
};

// ----------------------------------------------------------------- HTTP --

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(DevtoolsServer::Impl& server, tcp::socket socket)
      : server_(server), stream_(std::move(socket)) {}

  void read() {
    parser_.emplace();
    parser_->header_limit(kMaxRequestBytes);
    parser_->body_limit(kMaxRequestBytes);
    stream_.expires_after(std::chrono::seconds(30));
    http::async_read(stream_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, std::size_t) {
                       if (ec) return self->close();
                       self->handle(self->parser_->release());
                     });
  }

 private:
  void handle(http::request<http::string_body> request) {
    if (!detail::host_allowed(request[http::field::host], server_.options.allowed_hosts)) {
      return reply(request, http::status::forbidden,
                   "host not allowed (mailroom.devtools.allowed-hosts)\n");
    }
    const Target target = parse_target(request.target());
    const bool token_ok = same_text(target.token, server_.options.token);
    if (websocket::is_upgrade(request)) {
      if (target.path != "/api/ws")
        return reply(request, http::status::not_found, "no such socket\n");
      if (!token_ok) return reply(request, http::status::unauthorized, "token required\n");
      if (!server_.origin_allowed(request[http::field::origin])) {
        return reply(request, http::status::forbidden, "origin not allowed\n");
      }
      stream_.expires_never();
      std::make_shared<WsConnection>(server_, stream_.release_socket())->start(std::move(request));
      return;
    }
    if (request.method() != http::verb::get && request.method() != http::verb::head) {
      return reply(request, http::status::method_not_allowed, "GET only\n");
    }
    if (target.path == "/healthz") return reply(request, http::status::ok, "ok\n");
    if (target.path == "/metrics") {
      return reply(request, http::status::ok, server_.system->metrics().scrape(),
                   "text/plain; version=0.0.4; charset=utf-8");
    }
    if (target.path == "/" || target.path == "/index.html") {
      if (!token_ok) {
        return reply(request, http::status::unauthorized,
                     "Open the DevTools URL the process printed (it carries the token).\n");
      }
      // web/dist holds the demo's index.html too: the attach page is the panel here.
      auto page = read_file(server_.options.panel_dir + "/attach.html");
      if (!page) page = read_file(server_.options.panel_dir + "/index.html");
      if (page) {
        return reply(request, http::status::ok, std::move(*page), "text/html; charset=utf-8");
      }
      return reply(request, http::status::not_found,
                   "No panel in \"" + server_.options.panel_dir +
                       "\": build it (npx vite build --config web/vite.attach.config.ts, "
                       "or cmake --build <build> --target mailroom_devtools_panel) and pass "
                       "web/dist-attach as panel-dir, or install Mailroom with it "
                       "(share/mailroom/devtools-panel).\n");
    }
    // The panel's own code and styles: no data in them, so no token (a page
    // cannot add the token to its script URLs).
    const std::string file = static_file(server_.options.panel_dir, target.path);
    if (!file.empty()) {
      if (auto body = read_file(file)) {
        return reply(request, http::status::ok, std::move(*body), content_type(file));
      }
    }
    reply(request, http::status::not_found, "not found\n");
  }

  void reply(const http::request<http::string_body>& request, http::status status, std::string body,
             std::string type = "text/plain; charset=utf-8") {
    auto response = std::make_shared<http::response<http::string_body>>(status, request.version());
    response->set(http::field::server, "mailroom-devtools");
    response->set(http::field::content_type, type);
    response->set(http::field::cache_control, "no-store");
    response->set("X-Content-Type-Options", "nosniff");
    response->set("Referrer-Policy", "no-referrer");  // the token never leaves in a Referer
    response->keep_alive(request.keep_alive());
    const bool head = request.method() == http::verb::head;
    response->body() = head ? std::string() : std::move(body);
    response->prepare_payload();
    http::async_write(stream_, *response,
                      [self = shared_from_this(), response](beast::error_code ec, std::size_t) {
                        if (ec || !response->keep_alive()) return self->close();
                        self->read();
                      });
  }

  void close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  }

  DevtoolsServer::Impl& server_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

// --------------------------------------------------------------- server --

void DevtoolsServer::Impl::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (!ec) {
      accept_backoff_ms = 0;
      std::make_shared<HttpConnection>(*this, std::move(socket))->read();
      return accept();
    }
    // Out of file descriptors (EMFILE, ENFILE) or another accept failure:
    // the pending connection stays in the backlog, so accepting again at
    // once fails again at once (a spin). Pause the listener, 10 ms doubling
    // to 1 s, and say so once per episode.
    if (accept_backoff_ms == 0) {
      system->log().warn("devtools: cannot accept connections (" + ec.message() +
                         "): pausing the listener until it can");
    }
    accept_backoff_ms = std::clamp<std::int64_t>(accept_backoff_ms * 2, 10, 1000);
    accept_timer.expires_after(std::chrono::milliseconds(accept_backoff_ms));
    accept_timer.async_wait([this](beast::error_code wait) {
      if (!wait) accept();
    });
  });
}

void DevtoolsServer::Impl::watch_dead_letters(bool on) {
  DeadLetterQueue& queue = system->dead_letter_queue();
  if (on && dead_letter_watchers++ == 0) {
    // Only while someone watches: with nobody attached, capture pays nothing.
    {
      std::lock_guard<std::mutex> lock(waker->mutex);
      waker->impl = this;
    }
    listener_id = queue.add_change_listener([waker = waker](std::uint64_t) {
      std::lock_guard<std::mutex> lock(waker->mutex);
      if (waker->impl != nullptr) waker->impl->wake_dead_letter_watchers();
    });
    listening = true;
  } else if (!on && dead_letter_watchers > 0 && --dead_letter_watchers == 0) {
    queue.remove_change_listener(listener_id);
    listening = false;
  }
}

void DevtoolsServer::Impl::wake_dead_letter_watchers() {
  // Any thread. A storm of letters posts one wake-up, not one per letter.
  if (wake_pending.exchange(true)) return;
  net::post(ioc, [this] {
    wake_pending = false;
    std::vector<std::shared_ptr<WsConnection>> watching;
    for (const auto& socket : sockets) {
      if (socket->watches_dead_letters()) watching.push_back(socket);
    }
    for (const auto& socket : watching) socket->poll();
  });
}

DevtoolsServer::DevtoolsServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

std::unique_ptr<DevtoolsServer> DevtoolsServer::start(std::shared_ptr<ActorSystem> system,
                                                      DevtoolsServerOptions options) {
  if (!system) throw std::invalid_argument("DevtoolsServer::start: no system");
  ActorSystem& ref = *system;
  return listen(std::move(system), ref, std::move(options));
}

std::unique_ptr<DevtoolsServer> DevtoolsServer::attach(ActorSystem& system,
                                                       DevtoolsServerOptions options) {
  return listen(nullptr, system, std::move(options));
}

std::unique_ptr<DevtoolsServer> DevtoolsServer::listen(std::shared_ptr<ActorSystem> owner,
                                                       ActorSystem& system,
                                                       DevtoolsServerOptions options) {
  auto impl = std::make_unique<Impl>();
  impl->owner = std::move(owner);
  impl->system = &system;
  if (options.token.empty()) options.token = random_token();
  if (options.max_queued_frames == 0) options.max_queued_frames = 1;
  if (options.panel_dir.empty()) options.panel_dir = devtools::default_panel_dir();
  impl->options = std::move(options);
  beast::error_code ec;
  const auto address = net::ip::make_address(impl->options.bind, ec);
  if (ec) throw std::runtime_error("DevtoolsServer: bad bind address " + impl->options.bind);
  const tcp::endpoint endpoint(address, impl->options.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    throw std::runtime_error("DevtoolsServer: cannot listen on " + impl->options.bind + ":" +
                             std::to_string(impl->options.port) + ": " + ec.message());
  }
  impl->port = impl->acceptor.local_endpoint().port();
  impl->accept();
  Impl* raw = impl.get();
  impl->thread = std::thread([raw] { raw->ioc.run(); });
  return std::unique_ptr<DevtoolsServer>(new DevtoolsServer(std::move(impl)));
}

DevtoolsServer::~DevtoolsServer() {
  stop();
}

void DevtoolsServer::stop() {
  if (!impl_) return;
  std::call_once(impl_->stopped, [impl = impl_.get()] {
    net::post(impl->ioc, [impl] {
      beast::error_code ignored;
      impl->acceptor.close(ignored);
      impl->accept_timer.cancel();
      std::vector<std::shared_ptr<WsConnection>> open(impl->sockets.begin(), impl->sockets.end());
      for (const auto& socket : open) socket->shut();
      impl->ioc.stop();
    });
    if (impl->thread.joinable()) impl->thread.join();
    {
      std::lock_guard<std::mutex> lock(impl->waker->mutex);
      impl->waker->impl = nullptr;
    }
    if (impl->listening)
      impl->system->dead_letter_queue().remove_change_listener(impl->listener_id);
    impl->listening = false;
    // Connections the stopped loop still holds (pending handlers) go now, while
    // the system they read is certainly alive.
    impl->sockets.clear();
  });
}

std::uint16_t DevtoolsServer::port() const noexcept {
  return impl_->port;
}

const std::string& DevtoolsServer::token() const noexcept {
  return impl_->options.token;
}

std::string DevtoolsServer::url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/?token=" + impl_->options.token;
}

std::string DevtoolsServer::metrics_url() const {
  return "http://127.0.0.1:" + std::to_string(impl_->port) + "/metrics";
}

std::size_t DevtoolsServer::clients() const noexcept {
  return impl_->clients.load();
}

}  // namespace mailroom
