// ActorCell: one turn of the actor — system messages first, then user
// messages while the actor may take them.
#include <algorithm>
#include <utility>

#include "actor_cell.hpp"
#include "completion_state.hpp"
#include "internal_messages.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/system_messages.hpp"
#include "system_core.hpp"

namespace mailroom::detail {

std::size_t ActorCell::run(std::size_t max_messages) {
  return run(max_messages, TurnExtension{0, nullptr, nullptr});
}

std::size_t ActorCell::run(std::size_t max_messages, const TurnExtension& extension) {
  const auto throughput = static_cast<std::size_t>(options_.throughput());
  if (max_messages == 0 || max_messages > throughput) max_messages = throughput;
  ScopedTurn turn;
  std::size_t processed = 0;
  for (;;) {
    if (processed >= max_messages) {
      if (processed >= extension.up_to || extension.others_waiting(extension.dispatcher)) break;
      max_messages = std::min(processed + throughput, extension.up_to);
    }
    if (auto envelope = mailbox_->dequeue_system()) {
      ++processed;
      handle_system(*envelope);
      continue;
    }
    if (is_terminated()) {
      drain_after_termination();
      break;
    }
    if (!can_take_user()) break;
    auto envelope = mailbox_->dequeue_user();
    if (!envelope) {
      reset_size_warning();  // the queue emptied: warn again from 10,000
      break;
    }
    ++processed;
    handle_user(*envelope);
  }
  // A release store, then the seq_cst fence: against a sender's seq_cst push
  // and flag load, either the sender sees false and schedules, or the reads
  // after the fence see its push. The fence alone gives that (C++20's fence
  // rules), so the store need not be a second full barrier (an xchg on x86).
  scheduled_.store(false, std::memory_order_release);
  detail::fence(std::memory_order_seq_cst);
  if (has_runnable_work()) schedule();
  return processed;
}

bool ActorCell::can_take_user() const noexcept {
  return state_.load(std::memory_order_acquire) == CellState::kRunning && !mailbox_->suspended() &&
         !awaiting_completion_;
}

bool ActorCell::has_runnable_work() const {
  if (mailbox_->system_size() > 0) return true;
  if (mailbox_->size() == 0) return false;
  return is_terminated() || can_take_user();
}

void ActorCell::handle_system(Envelope& envelope) {
  const Message& m = envelope.message;
  if (is_terminated()) {
    // Too late for everything but a watch: answer it at once.
    if (auto watch = m.get_if<sys::Watch>()) {
      ActorRef self = self_or_ghost();
      watch->watcher.cell()->signal(Envelope{Terminated{self}, self, {}, 0});
    }
    return;
  }
  if (m.is<sys::Create>()) {
    create_instance(false, nullptr);
  } else if (m.is<sys::Terminate>()) {
    begin_stop();
  } else if (m.is<sys::Resume>()) {
    if (state_.load() == CellState::kRunning) {
      resume_mailbox();
      // Children suspended by a failure we escalated wait on us.
      for (const auto& child : children()) child->send_system(sys::Resume{});
    }
  } else if (auto restart = m.get_if<sys::Restart>()) {
    begin_restart(restart->reason);
  } else if (auto failed = m.get_if<sys::Failed>()) {
    handle_child_failed(failed->child, failed->uid, failed->reason);
  } else if (auto child = m.get_if<sys::ChildTerminated>()) {
    handle_child_terminated(child->child);
  } else if (auto watch = m.get_if<sys::Watch>()) {
    if (watch->watcher != self_) watchers_.insert(watch->watcher);
  } else if (auto unwatch = m.get_if<sys::Unwatch>()) {
    watchers_.erase(unwatch->watcher);
  } else if (auto done = m.get_if<sys::CompletionDone>()) {
    if (!pending_completion_ || pending_completion_->token != done->token) return;  // stale
    pending_completion_.reset();
    awaiting_completion_ = false;
    std::optional<Envelope> deferred = std::move(deferred_envelope_);
    deferred_envelope_.reset();
    if (done->error) handle_failure(done->error, deferred ? &*deferred : nullptr);
  }
}

void ActorCell::handle_user(Envelope& envelope) {
  // Only this turn writes it (turns never overlap): no read-modify-write needed.
  processed_.store(processed_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  const Message& m = envelope.message;
  if (m.is<PoisonPill>()) {
    begin_stop();
    return;
  }
  if (m.is<Kill>()) {
    handle_failure(std::make_exception_ptr(ActorKilledError("killed: " + local_path_)), &envelope);
    return;
  }
  if (auto terminated = m.get_if<Terminated>()) {
    auto it = watching_.find(terminated->actor);
    if (it == watching_.end()) return;  // unwatched since it was sent
    watching_.erase(it);
  }
  invoke(envelope);
}

void ActorCell::invoke(Envelope& envelope) {
  if (!actor_) {  // resumed after a failed creation: nobody to deliver to
    dead_letter(envelope);
    return;
  }
  std::exception_ptr error;
  current_ = &envelope;
  current_stashed_ = false;
  {
    ScopedEnvelope scope(&envelope);
    try {
      if (!behaviours_.empty()) {
        Receive behaviour = behaviours_.back();  // become() may replace it meanwhile
        behaviour(envelope.message);
      } else {
        actor_->receive(envelope.message);
      }
    } catch (...) {
      error = std::current_exception();
    }
  }
  current_ = nullptr;
  if (error) {
    // A watcher that throws on its Terminated also loses the notification.
    if (envelope.message.is<Terminated>()) dead_letter(envelope);
    handle_failure(error, &envelope);
    return;
  }
  // Deferred: wait for its CompletionDone (already queued if completed inside receive).
  if (pending_completion_) awaiting_completion_ = true;
}

void ActorCell::drain_after_termination() {
  for (auto& envelope : mailbox_->drain_system()) handle_system(envelope);  // answers watches
  close_user_queue();
}

void ActorCell::resume_mailbox() {
  mailbox_->resume();
  schedule();
}

}  // namespace mailroom::detail
