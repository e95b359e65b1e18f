// DevtoolsSession: one client of the DevTools protocol (docs/devtools-protocol.md)
// against one ActorSystem. It reads client frames (JSON text), answers them and
// produces the stream events, all through one `send` callback, so the native
// WebSocket server and the in-page (wasm) loopback send the very same frames.
// Not thread-safe: one thread drives a session (the server's I/O thread, the
// page's event loop); the system calls it makes are thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mailroom {

class ActorSystem;

struct DevtoolsSessionOptions {
  bool allow_writes = false;     // deadLetters.replay answers "unavailable" unless true
  std::string node;              // shown by the panel for this process (default: system name)
  std::size_t first_page = 200;  // dead letters in the deadLetters snapshot
  std::size_t max_page = 1000;   // the largest deadLetters.list limit accepted
  std::int64_t min_interval_ms = 50;
};

class DevtoolsSession {
 public:
  static constexpr std::string_view kProtocol = "mailroom-devtools";
  static constexpr int kVersion = 1;

  using Send = std::function<void(std::string frame)>;
  using Clock = std::function<std::int64_t()>;  // monotonic milliseconds, for intervals

  DevtoolsSession(ActorSystem& system, DevtoolsSessionOptions options, Send send, Clock clock = {});
  ~DevtoolsSession();
  DevtoolsSession(const DevtoolsSession&) = delete;
  DevtoolsSession& operator=(const DevtoolsSession&) = delete;

  // One client frame. Every answer (welcome, events, responses, errors) goes
  // out through send before this returns. Never throws.
  void receive(std::string_view frame);
  // Sends the events that are due: a mailboxes or metrics delta once its
  // interval has passed, a deadLetters delta whenever the queue's revision
  // moved. Cheap when nothing is subscribed or nothing changed. Never throws.
  void poll();
  // Milliseconds until poll() has something to do by time (-1: nothing
  // subscribed; dead-letter changes are signalled by the queue's listener).
  std::int64_t next_poll_in_ms() const;

  bool greeted() const noexcept;
  bool subscribed() const noexcept;  // to any stream
  bool watches_dead_letters() const noexcept;
  // After a fatal protocol error (no hello first, unsupported version) the
  // transport closes the connection.
  bool should_close() const noexcept;

  // A transport that had to drop a frame calls this: the client sees a gap
  // in the sequence numbers, and every subscribed stream's next event is a
  // fresh snapshot instead of a delta.
  void resync() noexcept;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace mailroom
