// ActorSystem: a named tree of actors (/user for the application, /system for
// internal ones), its dispatcher, event stream, logging, dead letters and
// coordinated shutdown. Always held by shared_ptr.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_ref.hpp"
#include "mailroom/actor_selection.hpp"
#include "mailroom/actor_snapshot.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/coordinated_shutdown.hpp"
#include "mailroom/dead_letter.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/devtools_endpoint.hpp"
#include "mailroom/dispatcher.hpp"
#include "mailroom/event_stream.hpp"
#include "mailroom/logger.hpp"
#include "mailroom/message.hpp"
#include "mailroom/replay_target.hpp"

namespace mailroom {

class MetricsRegistry;

namespace detail {
class SystemCore;
}

class ActorSystem {
 public:
  // Name: non-empty, [A-Za-z0-9_-] (else OptionsError{"ActorSystem", "name", name}).
  static std::shared_ptr<ActorSystem> create(std::string name,
                                             ActorSystemOptions options = ActorSystemOptions());
  // Terminates (driving a caller-driven dispatcher) and waits for the tree.
  ~ActorSystem();
  ActorSystem(const ActorSystem&) = delete;
  ActorSystem& operator=(const ActorSystem&) = delete;

  const std::string& name() const noexcept;

  // A top-level actor under /user. Invalid or duplicate name →
  // InvalidActorNameError; bad options → OptionsError; after terminate() →
  // IllegalStateError.
  ActorRef spawn(ActorFactory factory, std::string name, ActorOptions options = {});
  template <class A, class... Args>
  ActorRef spawn(std::string name, ActorOptions options = {}, Args&&... args) {
    // The type is known now, before the instance: the class hint.
    if (options.class_name().empty()) options.with_class_name(demangle(typeid(A).name()));
    return spawn([=]() -> std::unique_ptr<Actor> { return std::make_unique<A>(args...); },
                 std::move(name), std::move(options));
  }
  // An internal actor under /system (shown by inspect()).
  ActorRef spawn_system_actor(ActorFactory factory, std::string name, ActorOptions options = {});

  ActorSelection actor_selection(std::string path);
  void stop(const ActorRef& ref);  // PoisonPill
  // Any live actor by "/user/a", "/system/x" or a full path; guardians too.
  std::optional<ActorRef> resolve(std::string_view path) const;

  EventStream& event_stream();
  MetricsRegistry& metrics();  // enabled() is false after with_metrics(false)
  const Logger& log() const;
  CoordinatedShutdown& coordinated_shutdown();
  Dispatcher& dispatcher();
  ReplayTarget& replay_target();
  const ActorSystemOptions& options() const;
  std::int64_t now_ms() const;  // the configured clock

  // Every live actor below the guardians (/user and /system subtrees).
  std::vector<ActorSnapshot> inspect() const;

  // Fills the paths, hands the letter to the sink, then the opt-in log, then
  // the event stream. A letter whose message is itself a DeadLetter is dropped
  // (no loops).
  void publish_dead_letter(DeadLetter letter);
  void set_dead_letter_sink(std::shared_ptr<DeadLetterSink> sink);
  // The system's own queue; always exists (store "off" keeps nothing). It is
  // the capture sink unless ActorSystemOptions::with_dead_letter_sink replaced it.
  DeadLetterQueue& dead_letter_queue();
  // How payloads become tagged JSON (the journal, the DevTools protocol).
  PayloadCodecRegistry& payload_codecs();
  // The dead-letter office as a ref ("<system>/deadLetters", the same ref every
  // call). A DeadLetter told to it is recorded as it is (its own recipient and
  // sender); anything else is recorded as DeadLetter{message, sender, office}.
  // A letter about a letter is dropped, as by publish_dead_letter.
  ActorRef dead_letters() const;
  // The DevTools server with_devtools(...) or HOCON mailroom.devtools started
  // (where to attach: url(), metrics_url()); null when none was asked for.
  // Stopped at terminate(); the pointer stays valid while the system exists.
  DevtoolsEndpoint* devtools() const noexcept;

  // Starts coordinated shutdown; non-blocking, idempotent.
  void terminate();
  bool is_terminated() const;
  // Runs at once if already terminated; else on the thread that finishes it.
  void when_terminated(std::function<void()> callback);
  // Blocks (thread pool) or drives the dispatcher until terminated.
  void await_termination();

  // For the runtime's own parts (selections, cells).
  const std::shared_ptr<detail::SystemCore>& core() const noexcept { return core_; }

 private:
  explicit ActorSystem(std::shared_ptr<detail::SystemCore> core);
  std::shared_ptr<detail::SystemCore> core_;
};

}  // namespace mailroom
