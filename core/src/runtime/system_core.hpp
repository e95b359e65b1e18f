// SystemCore: the shared state of one actor system. Cells hold it by
// shared_ptr, so a ref that outlives its ActorSystem still dead-letters safely.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "log_router.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/coordinated_shutdown.hpp"
#include "mailroom/dead_letter.hpp"
#include "mailroom/dead_letter_logger.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/devtools_endpoint.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/event_stream.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/logger.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/replay_target.hpp"

namespace mailroom {
class ActorSystem;
}

namespace mailroom::detail {

class ActorCell;

class SystemCore : public ReplayTarget, public std::enable_shared_from_this<SystemCore> {
 public:
  SystemCore(std::string name, ActorSystemOptions options);

  const std::string& name() const noexcept { return name_; }
  const ActorSystemOptions& options() const noexcept { return options_; }
  Dispatcher& dispatcher() const noexcept { return *dispatcher_; }
  EventStream& events() const noexcept { return *events_; }
  MetricsRegistry& metrics() noexcept { return metrics_; }
  CoordinatedShutdown& shutdown() noexcept { return shutdown_; }
  const Logger& log() const noexcept { return log_; }
  Logger logger_for(std::string source) const { return Logger(std::move(source), router_); }
  std::int64_t now_ms() const;
  std::uint64_t next_uid() noexcept { return next_uid_.fetch_add(1, std::memory_order_relaxed); }

  // The facade, for Actor::system(); null once it is destroyed.
  ActorSystem* facade() const noexcept { return facade_.load(std::memory_order_acquire); }
  void set_facade(ActorSystem* facade) noexcept {
    facade_.store(facade, std::memory_order_release);
  }

  // ---- tree ----
  void set_guardians(std::shared_ptr<ActorCell> root, std::shared_ptr<ActorCell> user,
                     std::shared_ptr<ActorCell> system);
  // Copies under the tree lock: release_tree may run on another thread (a
  // scrape or a resolve racing the system's destruction). Empty once released.
  std::shared_ptr<ActorCell> root() const;
  std::shared_ptr<ActorCell> user_guardian() const;
  std::shared_ptr<ActorCell> system_guardian() const;
  std::shared_ptr<ActorCell> find(std::string_view local_path) const;
  ActorRef ghost(std::string_view path);
  // The dead-letter office's ref (empty once the tree is released).
  ActorRef dead_letter_office() const;
  // Breaks the cell <-> core cycles after termination (also via captured
  // letters). Event-stream subscriptions stay: a tell that outlives the system
  // still dead-letters to them (tests/native/shutdown_race_test.cpp).
  void release_tree();

  // ---- dead letters ----
  void publish_dead_letter(DeadLetter letter);
  void set_sink(std::shared_ptr<DeadLetterSink> sink);
  // Builds the system's queue from options + HOCON (after the guardians exist,
  // since a persistent restore resolves recorded senders) and registers its
  // flushes with coordinated shutdown.
  void install_dead_letter_queue();
  DeadLetterQueue& dead_letter_queue() noexcept { return *queue_; }
  PayloadCodecRegistry& payload_codecs() noexcept { return *codecs_; }
  const HoconConfig& config() const noexcept { return config_; }
  // A drop reported by a mailbox: counter, then (if opted in) a dead letter.
  void report_drop(const std::shared_ptr<ActorCell>& cell, DropReason reason,
                   const Envelope& envelope, bool dead_letter);

  // ---- DevTools server (with_devtools / mailroom.devtools) ----
  // Keeps the started server and registers its stop in phase service-unbind.
  void set_devtools(std::unique_ptr<DevtoolsEndpoint> endpoint);
  DevtoolsEndpoint* devtools() const noexcept { return devtools_.get(); }
  // Stops and frees it while the facade still exists (the server reads it).
  void release_devtools();

  // ---- termination ----
  bool terminating() const noexcept { return terminating_.load(std::memory_order_acquire); }
  bool terminated() const noexcept { return terminated_.load(std::memory_order_acquire); }
  void terminate();
  // Root saw a guardian stop.
  void on_guardian_terminated(const ActorCell& guardian);
  void when_terminated(std::function<void()> callback);
  void await_termination();
  // The facade was destroyed inside an actor's turn: once the tree is down
  // (now, if it already is), shut the dispatcher down and release the tree.
  void release_when_terminated();

  // ---- ReplayTarget ----
  std::optional<ActorRef> resolve_user_actor(std::string_view path) override;
  std::string local_path(std::string_view path) const override;
  std::string malformation(std::string_view path) const override;
  void deliver(const ActorRef& recipient, Envelope envelope) override;

 private:
  void register_size_gauge();
  void finish_termination();
  void release_after_termination();

  std::string name_;
  ActorSystemOptions options_;
  std::shared_ptr<Dispatcher> dispatcher_;
  std::shared_ptr<EventStream> events_;
  std::shared_ptr<LogRouter> router_;
  Logger log_;
  MetricsRegistry metrics_;
  CoordinatedShutdown shutdown_;
  std::atomic<std::uint64_t> next_uid_{1};
  std::atomic<ActorSystem*> facade_{nullptr};

  mutable std::mutex tree_mutex_;  // the four anchors below (set once, reset by release_tree)
  std::shared_ptr<ActorCell> root_, user_, system_;
  std::shared_ptr<ActorCell> office_;  // "/deadLetters"

  HoconConfig config_;
  std::shared_ptr<PayloadCodecRegistry> codecs_;
  std::shared_ptr<DeadLetterQueue> queue_;
  std::unique_ptr<DeadLetterLogger> dead_letter_logger_;  // null unless opted in
  std::mutex dead_letter_logger_mutex_;
  mutable std::mutex sink_mutex_;
  std::shared_ptr<DeadLetterSink> sink_;
  std::unique_ptr<DevtoolsEndpoint> devtools_;  // set once in create(), before anyone can read it

  std::atomic<bool> terminating_{false};
  std::atomic<bool> terminated_{false};
  mutable std::mutex termination_mutex_;
  std::condition_variable termination_cv_;
  std::vector<std::function<void()>> on_terminated_;
  // Set (termination_mutex_) once the when_terminated callbacks have run:
  // await_termination waits for it, so a callback never outlives its caller.
  bool callbacks_done_ = false;
  bool release_when_terminated_ = false;  // termination_mutex_
};

}  // namespace mailroom::detail
