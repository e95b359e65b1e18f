// ActorCell: what ActorContext offers an actor during its own turn — stash,
// become, defer, watch, unhandled.
#include <utility>

#include "actor_cell.hpp"
#include "completion_state.hpp"
#include "internal_messages.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/system_messages.hpp"
#include "system_core.hpp"

namespace mailroom::detail {

const ActorRef& ActorCell::current_sender() const noexcept {
  static const ActorRef kNone;
  return current_ ? current_->sender : kNone;
}

void ActorCell::stash() {
  // The message being handled: this turn's, or the one a deferred (async)
  // receive still holds until its completion (never an async start's marker).
  const Envelope* handled = current_;
  if (!handled && awaiting_completion_ && deferred_envelope_ &&
      !deferred_envelope_->message.is<DeferredStart>()) {
    handled = &*deferred_envelope_;
  }
  if (!handled) throw IllegalStateError("stash() is only allowed while receiving a message");
  // Twice would deliver it twice after unstashAll (Akka refuses it too).
  if (current_stashed_) throw IllegalStateError("stash(): this message is already stashed");
  if (stash_.size() >= ActorContext::kStashCapacity) {
    throw StashOverflowError(ActorContext::kStashCapacity);
  }
  // handle_user erased the watch when it accepted this Terminated; re-arm it
  // so the re-delivery after unstashAll passes the same check (an unwatch
  // meanwhile still filters it, as for any queued Terminated).
  if (const auto* terminated = handled->message.get_if<Terminated>()) {
    watching_.insert(terminated->actor);
  }
  stash_.push_back(*handled);
  current_stashed_ = true;
  stash_count_.store(stash_.size(), std::memory_order_relaxed);
}

void ActorCell::unstash_all() {
  if (stash_.empty()) return;
  std::vector<Envelope> batch(stash_.begin(), stash_.end());
  // Under reject nothing is inserted: the stash stays as it was.
  naming_full_mailbox([&] { mailbox_->prepend_user(std::move(batch)); });
  stash_.clear();
  stash_count_.store(0, std::memory_order_relaxed);
  schedule();
}

void ActorCell::become(Receive behaviour, bool discard_old) {
  if (discard_old && !behaviours_.empty()) behaviours_.pop_back();
  behaviours_.push_back(std::move(behaviour));
}

void ActorCell::unbecome() {
  if (!behaviours_.empty()) behaviours_.pop_back();
}

Completion ActorCell::defer() {
  if (!current_) throw IllegalStateError("defer() is only allowed while receiving a message");
  if (!pending_completion_) {
    pending_completion_ = std::make_shared<CompletionState>();
    pending_completion_->cell = weak_from_this();
    pending_completion_->token = ++completion_token_;
    deferred_envelope_ = *current_;
  }
  return Completion(pending_completion_);
}

void ActorCell::watch(const ActorRef& ref) {
  if (!ref || ref == self_ || watching_.count(ref)) return;
  watching_.insert(ref);
  if (ref.cell()->is_terminated()) {
    // Already dead (or never lived): the notification comes at once.
    mailbox_->enqueue_signal(Envelope{Terminated{ref}, ref, {}, 0});
    schedule();
    return;
  }
  ref.cell()->send_system(sys::Watch{self_});
}

void ActorCell::unwatch(const ActorRef& ref) {
  if (!ref || watching_.erase(ref) == 0) return;
  ref.cell()->send_system(sys::Unwatch{self_});
}

void ActorCell::unhandled(const Message& message) {
  DeadLetter letter;
  letter.cause = DeadLetterCause::kUnhandled;
  letter.message = message;
  letter.sender = current_sender();
  letter.recipient = self_or_ghost();
  if (current_ && current_->message.identity() == message.identity()) {
    letter.replay_entry = current_->replay_entry;
  }
  system_->publish_dead_letter(std::move(letter));
}

}  // namespace mailroom::detail
