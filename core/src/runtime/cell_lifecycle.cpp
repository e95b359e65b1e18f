// ActorCell: creation (including an asynchronous start, defer_start()),
// failure and supervision, restart and stop.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "actor_cell.hpp"
#include "completion_state.hpp"
#include "describe_exception.hpp"
#include "internal_messages.hpp"
#include "mailroom/actor_initialization_error.hpp"
#include "mailroom/deferred_start.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/system_messages.hpp"
#include "system_core.hpp"

namespace mailroom::detail {

namespace {

// The pre_start / post_restart running on this thread; defer_start() hands out
// the completion recorded here, with the token the cell reserved for it.
struct StartGate {
  ActorCell* cell;
  std::uint64_t token;
  std::shared_ptr<CompletionState> state;
};
thread_local StartGate* t_start_gate = nullptr;

class ScopedStartGate {
 public:
  explicit ScopedStartGate(StartGate* gate) : previous_(t_start_gate) { t_start_gate = gate; }
  ~ScopedStartGate() { t_start_gate = previous_; }
  ScopedStartGate(const ScopedStartGate&) = delete;
  ScopedStartGate& operator=(const ScopedStartGate&) = delete;

 private:
  StartGate* previous_;
};

std::exception_ptr as_initialization_error(const std::string& path, std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const ActorInitializationError&) {
    return error;
  } catch (...) {
  }
  return std::make_exception_ptr(ActorInitializationError(path, error));
}

}  // namespace

void ActorCell::start_now() {
  create_instance(false, nullptr);
}

bool ActorCell::create_instance(bool restart, std::exception_ptr reason) {
  state_.store(CellState::kRunning, std::memory_order_release);
  StartGate gate{this, completion_token_ + 1, nullptr};
  try {
    {
      ScopedConstruction scope(&context_);
      actor_ = factory_();
    }
    if (!actor_) throw IllegalStateError("the actor factory returned null");
    {
      std::lock_guard lock(info_mutex_);
      class_name_ = actor_->class_name();
    }
    {
      ScopedStartGate scope(&gate);
      if (restart) {
        actor_->post_restart(reason);
      } else {
        actor_->pre_start();
      }
    }
    if (gate.state) {
      // An asynchronous start: no user message until its completion (the
      // CompletionDone is already queued when it completed inside the hook).
      completion_token_ = gate.token;
      pending_completion_ = std::move(gate.state);
      deferred_envelope_ = Envelope{Message(DeferredStart{}), ActorRef(), {}, 0};
      awaiting_completion_ = true;
    }
    return true;
  } catch (...) {
    // The token was handed out: never reuse it for a later deferred receive.
    if (gate.state) completion_token_ = gate.token;
    handle_failure(
        std::make_exception_ptr(ActorInitializationError(local_path_, std::current_exception())),
        nullptr);
    return false;
  }
}

void ActorCell::handle_failure(std::exception_ptr error, const Envelope* envelope) {
  const CellState state = state_.load(std::memory_order_acquire);
  if (state == CellState::kStopping || state == CellState::kTerminated) {
    logger_.error("failed while stopping: " + describe_exception(error));
    return;
  }
  if (envelope && envelope->message.is<DeferredStart>()) {
    // A deferred start that failed: an initialization failure, not a message's.
    error = as_initialization_error(local_path_, error);
    envelope = nullptr;
  }
  mailbox_->suspend();
  if (envelope) {
    failed_envelope_ = *envelope;
  } else {
    failed_envelope_.reset();
  }
  // A deferred receive in flight is abandoned: its completion becomes stale.
  pending_completion_.reset();
  deferred_envelope_.reset();
  awaiting_completion_ = false;
  logger_.error(describe_exception(error));
  if (!parent_) {  // the root guardian has nobody to ask
    resume_mailbox();
    return;
  }
  parent_.cell()->send_system(sys::Failed{self_, uid_, error});
}

void ActorCell::handle_child_failed(const ActorRef& child, std::uint64_t uid,
                                    std::exception_ptr reason) {
  ActorCell* cell = child.cell();
  if (!cell || cell->uid_ != uid || this->child(cell->name_).get() != cell) return;
  const CellState state = state_.load(std::memory_order_acquire);
  if (state == CellState::kStopping || state == CellState::kTerminated) return;

  // The child's own ActorOptions strategy opts it out of ours.
  SupervisorStrategy strategy = cell->options_.supervisor_strategy()
                                    ? *cell->options_.supervisor_strategy()
                                : actor_ ? actor_->supervisor_strategy()
                                         : SupervisorStrategy();
  Directive directive = strategy.decide(reason);
  if (directive == Directive::kRestart && strategy.max_retries()) {
    // The restart budget lives on the child; only its parent touches it.
    const std::int64_t now = system_->now_ms();
    if (cell->restart_count_ == 0 ||
        (strategy.within_ms() > 0 && now - cell->restart_window_start_ms_ > strategy.within_ms())) {
      cell->restart_window_start_ms_ = now;
      cell->restart_count_ = 0;
    }
    if (++cell->restart_count_ > *strategy.max_retries()) directive = Directive::kStop;
  }
  // A guardian has no one above it worth failing: the child stops instead.
  if (directive == Directive::kEscalate && guardian_) directive = Directive::kStop;

  switch (directive) {
    case Directive::kResume:
      cell->send_system(sys::Resume{});
      break;
    case Directive::kRestart:
      cell->send_system(sys::Restart{reason});
      break;
    case Directive::kStop:
      cell->send_system(sys::Terminate{});
      break;
    case Directive::kEscalate:
      handle_failure(reason, nullptr);
      break;
  }
}

void ActorCell::begin_restart(std::exception_ptr reason) {
  if (state_.load(std::memory_order_acquire) != CellState::kRunning) return;
  if (actor_) {
    const Message* message = failed_envelope_ ? &failed_envelope_->message : nullptr;
    try {
      actor_->pre_restart(reason, message);
    } catch (...) {
      logger_.error("pre_restart failed: " + describe_exception(std::current_exception()));
    }
  }
  state_.store(CellState::kRestarting, std::memory_order_release);
  restart_reason_ = reason;
  if (awaiting_children_.empty()) finish_restart();
}

void ActorCell::finish_restart() {
  // The stash does not survive the instance that filled it.
  for (auto& envelope : stash_) dead_letter(std::move(envelope), DeadLetterCause::kRestarted);
  stash_.clear();
  stash_count_.store(0, std::memory_order_relaxed);
  actor_.reset();
  behaviours_.clear();
  std::exception_ptr reason = std::move(restart_reason_);
  restart_reason_ = nullptr;
  failed_envelope_.reset();
  // A failing post_restart stays suspended: the parent's answer decides.
  if (create_instance(true, reason)) resume_mailbox();
}

void ActorCell::terminate_children() {
  for (const auto& child : children()) {
    awaiting_children_.insert(child.get());
    child->send_system(sys::Terminate{});
  }
}

void ActorCell::begin_stop() {
  const CellState state = state_.load(std::memory_order_acquire);
  if (state == CellState::kStopping || state == CellState::kTerminated) return;
  state_.store(CellState::kStopping, std::memory_order_release);
  terminate_children();
  if (!has_children()) finish_stop();
}

void ActorCell::handle_child_terminated(const ActorRef& child) {
  awaiting_children_.erase(child.cell());
  if (!parent_ && guardian_) system_->on_guardian_terminated(*child.cell());
  const CellState state = state_.load(std::memory_order_acquire);
  if (state == CellState::kStopping && !has_children()) {
    finish_stop();
  } else if (state == CellState::kRestarting && awaiting_children_.empty()) {
    state_.store(CellState::kRunning, std::memory_order_release);
    finish_restart();
  }
}

void ActorCell::finish_stop() {
  if (actor_) {
    try {
      actor_->post_stop();
    } catch (...) {
      logger_.error("post_stop failed: " + describe_exception(std::current_exception()));
    }
  }
  ActorRef self = self_or_ghost();
  // Stash first, then what is still queued, each in arrival order.
  for (auto& envelope : stash_) dead_letter(std::move(envelope));
  stash_.clear();
  stash_count_.store(0, std::memory_order_relaxed);
  // Registered sends that began before this store finish first; later ones
  // see it and dead-letter (or answer) at the sender. A plain tell queues
  // without registering and then reads the state: it either queued before
  // this store (the drain below finds it) or sees kTerminated and drains the
  // user queue itself (ActorCell::tell). Nothing is left in it for a turn
  // that may never come.
  state_.store(CellState::kTerminated, std::memory_order_seq_cst);
  await_sends();
  drain_after_termination();
  actor_.reset();
  behaviours_.clear();
  pending_completion_.reset();
  awaiting_completion_ = false;

  for (const auto& watched : watching_) watched.cell()->send_system(sys::Unwatch{self});
  watching_.clear();
  for (const auto& watcher : watchers_) {
    watcher.cell()->signal(Envelope{Terminated{self}, self, {}, 0});
  }
  watchers_.clear();
  system_->events().unsubscribe(self);
  // A stopped actor's series leave /metrics (300 stopped actors used to leave
  // 300 series behind for good); a drop racing this line may bring one back.
  if (drop_counted_.load(std::memory_order_relaxed)) {
    system_->metrics().forget_series("actor_mailbox_dropped_total", "path", local_path_);
  }

  ActorRef parent = std::move(parent_);
  parent_ = ActorRef();
  self_ = ActorRef();  // breaks the cell -> itself cycle
  if (parent) {
    parent.cell()->remove_child(this);
    parent.cell()->send_system(sys::ChildTerminated{self});
  } else {
    system_->on_guardian_terminated(*this);  // the root itself is down
  }
}

}  // namespace mailroom::detail

namespace mailroom {

Completion defer_start(ActorContext& context) {
  detail::StartGate* gate = detail::t_start_gate;
  if (!gate || &gate->cell->context() != &context) {
    throw IllegalStateError("defer_start() is only allowed in pre_start() or post_restart()");
  }
  if (!gate->state) {
    gate->state = std::make_shared<detail::CompletionState>();
    gate->state->cell = gate->cell->weak_from_this();
    gate->state->token = gate->token;
  }
  return Completion(gate->state);
}

}  // namespace mailroom
