// The DevTools protocol for a system in the page: the core's DevtoolsSession
// (the very frames the native server sends) behind five functions, so the
// panel's loopback transport needs no socket. Registered here, apart from
// bindings.cpp, because it is the devtools module's only wasm surface.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "error_records.hpp"
#include "mailroom/devtools_session.hpp"
#include "system_registry.hpp"

namespace mailroom::wasm {
namespace {

using emscripten::val;

struct LoopbackSession {
  std::shared_ptr<ActorSystem> system;  // kept alive while the panel is attached
  std::vector<std::string> out;         // frames produced since the last call
  std::unique_ptr<DevtoolsSession> session;
};

std::map<int, std::unique_ptr<LoopbackSession>>& sessions() {
  static std::map<int, std::unique_ptr<LoopbackSession>> all;
  return all;
}
int next_session = 1;

val take_frames(LoopbackSession& s) {
  val frames = val::array();
  for (std::size_t i = 0; i < s.out.size(); ++i) frames.set(i, s.out[i]);
  s.out.clear();
  return frames;
}

LoopbackSession* find(int id) {
  auto it = sessions().find(id);
  return it == sessions().end() ? nullptr : it->second.get();
}

// { id } | error record
val devtools_open(int system, bool allow_writes) {
  try {
    SystemHandle& handle = SystemRegistry::instance().get(system);
    auto s = std::make_unique<LoopbackSession>();
    s->system = handle.system;
    DevtoolsSessionOptions options;
    options.allow_writes = allow_writes;
    LoopbackSession* raw = s.get();
    s->session = std::make_unique<DevtoolsSession>(
        *handle.system, options,
        [raw](std::string frame) { raw->out.push_back(std::move(frame)); });
    const int id = next_session++;
    sessions()[id] = std::move(s);
    val out = val::object();
    out.set("id", id);
    return out;
  } catch (...) {
    return error_record(std::current_exception());
  }
}

// The frames the client frame produced (welcome, events, response, error).
val devtools_receive(int id, std::string frame) {
  LoopbackSession* s = find(id);
  if (s == nullptr) return val::array();
  s->session->receive(frame);
  return take_frames(*s);
}

val devtools_poll(int id) {
  LoopbackSession* s = find(id);
  if (s == nullptr) return val::array();
  s->session->poll();
  return take_frames(*s);
}

double devtools_next_poll_ms(int id) {
  LoopbackSession* s = find(id);
  return s == nullptr ? -1.0 : static_cast<double>(s->session->next_poll_in_ms());
}

void devtools_close(int id) {
  sessions().erase(id);
}

}  // namespace
}  // namespace mailroom::wasm

EMSCRIPTEN_BINDINGS(mailroom_devtools) {
  using emscripten::function;
  using namespace mailroom::wasm;
  function("devtoolsOpen", &devtools_open);
  function("devtoolsReceive", &devtools_receive);
  function("devtoolsPoll", &devtools_poll);
  function("devtoolsNextPollMs", &devtools_next_poll_ms);
  function("devtoolsClose", &devtools_close);
}
