// SystemCore: the tree's anchors, dead-letter publishing, replay delivery
// and the termination sequence.
#include "system_core.hpp"

#include <chrono>
#include <thread>

#include "actor_cell.hpp"
#include "internal_messages.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/host_driven_dispatcher.hpp"
#include "mailroom/log_level_setting.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"

namespace mailroom::detail {

namespace {
std::shared_ptr<Dispatcher> default_dispatcher() {
  // A single-threaded core (wasm) has no worker threads to give.
#ifdef __EMSCRIPTEN__
  constexpr bool kNoThreads = true;
#else
  constexpr bool kNoThreads = detail::kSingleThreaded;
#endif
  if constexpr (kNoThreads) return std::make_shared<HostDrivenDispatcher>();
  return std::make_shared<ThreadPoolDispatcher>();
}

ActorSystemOptions::Clock wall_clock() {
  return [] {
    return static_cast<std::int64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                         std::chrono::system_clock::now().time_since_epoch())
                                         .count());
  };
}
}  // namespace

SystemCore::SystemCore(std::string name, ActorSystemOptions options)
    : name_(std::move(name)),
      options_(std::move(options)),
      dispatcher_(options_.dispatcher() ? options_.dispatcher() : default_dispatcher()),
      events_(std::make_shared<EventStream>()),
      router_(std::make_shared<LogRouter>(
          options_.log_sink(), options_.clock() ? options_.clock() : wall_clock(), events_)),
      log_(name_, router_),
      shutdown_([this](ShutdownPhase phase, const std::string& task, const std::string& what) {
        log_.error("shutdown task '" + task + "' in phase " + std::string(to_string(phase)) +
                   " failed: " + what);
      }),
      config_(options_.config() ? HoconConfig::parse(*options_.config()) : HoconConfig()),
      sink_(options_.dead_letter_sink()) {
  metrics_.set_enabled(options_.metrics());
  const LogLevelSetting level = LogLevelSetting::resolve(options_.log_level(), &config_);
  router_->set_threshold(level.level);
  if (!level.warning.empty()) log_.warn(level.warning);
  register_size_gauge();
}

std::int64_t SystemCore::now_ms() const {
  static const auto clock = wall_clock();
  return options_.clock() ? options_.clock()() : clock();
}

void SystemCore::set_guardians(std::shared_ptr<ActorCell> root, std::shared_ptr<ActorCell> user,
                               std::shared_ptr<ActorCell> system) {
  auto office = ActorCell::dead_letter_office(shared_from_this(), "/deadLetters",
                                              ActorPath::full(name_, "/deadLetters"));
  std::lock_guard lock(tree_mutex_);
  root_ = std::move(root);
  user_ = std::move(user);
  system_ = std::move(system);
  office_ = std::move(office);
}

std::shared_ptr<ActorCell> SystemCore::root() const {
  std::lock_guard lock(tree_mutex_);
  return root_;
}
std::shared_ptr<ActorCell> SystemCore::user_guardian() const {
  std::lock_guard lock(tree_mutex_);
  return user_;
}
std::shared_ptr<ActorCell> SystemCore::system_guardian() const {
  std::lock_guard lock(tree_mutex_);
  return system_;
}

ActorRef SystemCore::dead_letter_office() const {
  std::lock_guard lock(tree_mutex_);
  return ActorRef(office_);
}

std::shared_ptr<ActorCell> SystemCore::find(std::string_view local_path) const {
  if (local_path.empty()) return nullptr;
  std::shared_ptr<ActorCell> cell = root();
  if (!cell) return nullptr;
  for (std::string_view element : ActorPath::elements(local_path)) {
    cell = cell->child(std::string(element));
    if (!cell) return nullptr;
  }
  return cell;
}

ActorRef SystemCore::ghost(std::string_view path) {
  std::string local = ActorPath::to_local(path, name_);
  if (local.empty()) local = std::string(path);  // not ours: keep it as given
  std::string full = !local.empty() && local.front() == '/' ? ActorPath::full(name_, local) : local;
  return ActorRef(ActorCell::ghost(shared_from_this(), std::move(local), std::move(full)));
}

void SystemCore::release_tree() {
  // Moved out under the lock, destroyed after it (a cell's destructor may
  // reach back into this core).
  std::shared_ptr<ActorCell> root, user, system, office;
  {
    std::lock_guard lock(tree_mutex_);
    root = std::move(root_);
    user = std::move(user_);
    system = std::move(system_);
    office = std::move(office_);
  }
  // Captured letters hold live refs (sender, recipient, refs inside the
  // message), and every cell holds this core: drop the sink and the queue too,
  // or core -> queue -> entry -> cell -> core keeps the whole system alive.
  std::shared_ptr<DeadLetterSink> sink;
  {
    std::lock_guard lock(sink_mutex_);
    sink = std::move(sink_);
  }
  options_.with_dead_letter_sink(nullptr);  // the options' copy closes the same loop
  queue_.reset();
}

void SystemCore::set_sink(std::shared_ptr<DeadLetterSink> sink) {
  std::lock_guard lock(sink_mutex_);
  sink_ = std::move(sink);
}

void SystemCore::report_drop(const std::shared_ptr<ActorCell>& cell, DropReason reason,
                             const Envelope& envelope, bool dead_letter) {
  metrics_
      .counter("actor_mailbox_dropped_total", "Messages a bounded mailbox discarded",
               {{"class", cell->class_name()},
                {"path", cell->local_path()},
                {"policy", std::string(to_string(reason))}})
      .inc();
  cell->note_drop_counted();
  if (!dead_letter) return;
  DeadLetter letter;
  letter.cause = DeadLetterCause::kDropped;
  letter.drop_reason = reason;
  letter.message = envelope.message;
  letter.sender = envelope.sender;
  letter.recipient = ActorRef(cell);
  letter.replay_entry = envelope.replay_entry;
  publish_dead_letter(std::move(letter));
}

void SystemCore::register_size_gauge() {
  metrics_.add_collector([this](MetricsWriter& writer) {
    std::vector<std::shared_ptr<ActorCell>> pending;
    for (auto guardian : {user_guardian(), system_guardian()}) {
      if (guardian) pending.push_back(std::move(guardian));
    }
    while (!pending.empty()) {
      auto cell = std::move(pending.back());
      pending.pop_back();
      for (auto& child : cell->children()) {
        writer.gauge("actor_mailbox_size", "User messages waiting in an actor's mailbox",
                     {{"class", child->class_name()}, {"path", child->local_path()}},
                     static_cast<double>(child->user_depth()));
        pending.push_back(std::move(child));
      }
    }
  });
}

void SystemCore::terminate() {
  if (terminating_.exchange(true, std::memory_order_acq_rel)) return;
  for (ShutdownPhase phase : kShutdownPhases) {
    if (phase == ShutdownPhase::kAfterActorSystemTerminate) break;
    shutdown_.run_phase(phase);
  }
  // /user first; the root stops /system once /user is down, then itself.
  if (auto user = user_guardian(); user && !user->is_terminated()) {
    user->send_system(sys::Terminate{});
  } else {
    finish_termination();
  }
}

void SystemCore::on_guardian_terminated(const ActorCell& guardian) {
  auto root = this->root();
  auto system = system_guardian();
  if (&guardian == user_guardian().get()) {
    if (system) system->send_system(sys::Terminate{});
  } else if (&guardian == system.get()) {
    if (root) root->send_system(sys::Terminate{});
  } else if (&guardian == root.get()) {
    finish_termination();
  }
}

void SystemCore::finish_termination() {
  shutdown_.run_phase(ShutdownPhase::kAfterActorSystemTerminate);
  std::vector<std::function<void()>> callbacks;
  {
    std::lock_guard lock(termination_mutex_);
    if (terminated_.load()) return;
    terminated_.store(true, std::memory_order_release);
    callbacks.swap(on_terminated_);
  }
  for (auto& callback : callbacks) {
    try {
      callback();
    } catch (...) {
      log_.error("a when_terminated callback threw");
    }
  }
  bool release = false;
  {
    std::lock_guard lock(termination_mutex_);
    callbacks_done_ = true;
    release = release_when_terminated_;
  }
  termination_cv_.notify_all();
  if (release) release_after_termination();
}

void SystemCore::release_when_terminated() {
  {
    std::lock_guard lock(termination_mutex_);
    if (!callbacks_done_) {
      release_when_terminated_ = true;  // finish_termination will
      return;
    }
  }
  release_after_termination();
}

void SystemCore::release_after_termination() {
  if (!dispatcher_->runs_itself()) {
    // Whoever drives it is outside any turn once this one returns.
    dispatcher_->shutdown();
    release_tree();
    return;
  }
  // We may be on one of the pool's workers, which cannot join itself, and the
  // pool must outlive the turn the worker is finishing (the last cell it drops
  // may free this core and with it the pool): a helper thread joins the
  // workers, then releases the tree; the core may end on that thread.
  std::thread([core = shared_from_this()] {
    core->dispatcher().shutdown();
    core->release_tree();
  }).detach();
}

void SystemCore::when_terminated(std::function<void()> callback) {
  {
    std::lock_guard lock(termination_mutex_);
    if (!terminated_.load()) {
      on_terminated_.push_back(std::move(callback));
      return;
    }
  }
  callback();
}

void SystemCore::await_termination() {
  if (dispatcher_->runs_itself()) {
    std::unique_lock lock(termination_mutex_);
    termination_cv_.wait(lock, [this] { return callbacks_done_; });
    return;
  }
  while (!terminated()) {
    if (dispatcher_->drain() > 0) continue;
    // Nothing runnable here: another thread (a Completion) may still wake us.
    std::unique_lock lock(termination_mutex_);
    termination_cv_.wait_for(lock, std::chrono::milliseconds(1),
                             [this] { return terminated_.load(); });
  }
}

std::optional<ActorRef> SystemCore::resolve_user_actor(std::string_view path) {
  const std::string local = ActorPath::to_local(path, name_);
  if (!ActorPath::is_user_actor(local)) return std::nullopt;
  auto cell = find(local);
  if (!cell || cell->is_terminated()) return std::nullopt;
  return ActorRef(cell);
}

std::string SystemCore::local_path(std::string_view path) const {
  return ActorPath::to_local(path, name_);
}

std::string SystemCore::malformation(std::string_view path) const {
  return ActorPath::malformation(path);
}

void SystemCore::deliver(const ActorRef& recipient, Envelope envelope) {
  if (!recipient) return;
  recipient.cell()->tell(std::move(envelope));
}

}  // namespace mailroom::detail
