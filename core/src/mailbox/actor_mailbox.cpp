#include <stdexcept>
#include <utility>

#include "mailroom/mailbox.hpp"

namespace mailroom {

ActorMailbox::ActorMailbox(std::shared_ptr<MessageQueue> queue)
    : ActorMailbox(std::move(queue), Uncounted{}) {
  // Cold: once per actor. A queue an actor owns is not wrapped a second time
  // (that would bypass the owner's refusal, see MessageQueue).
  queue_->refuse_if_owned("ActorMailbox");
  queue_->wrappers_.fetch_add(1, std::memory_order_acq_rel);
  counted_ = true;
}

ActorMailbox::ActorMailbox(std::shared_ptr<MessageQueue> queue, Uncounted)
    : queue_(std::move(queue)), unbounded_(dynamic_cast<UnboundedMailbox*>(queue_.get())) {
  if (!queue_) throw std::invalid_argument("ActorMailbox needs a MessageQueue");
}

ActorMailbox::~ActorMailbox() {
  if (counted_) queue_->wrappers_.fetch_sub(1, std::memory_order_acq_rel);
}

bool ActorMailbox::diverted(Envelope& envelope) {
  if (!closed()) return false;
  sink_(std::move(envelope));
  return true;
}

void ActorMailbox::enqueue(Envelope&& envelope) {
  if (!diverted(envelope)) queue_->do_enqueue(std::move(envelope));
}

void ActorMailbox::enqueue_signal(Envelope&& envelope) {
  if (!diverted(envelope)) queue_->do_enqueue_signal(std::move(envelope));
}

void ActorMailbox::enqueue_control(Envelope&& envelope) {
  if (!diverted(envelope)) queue_->do_enqueue_control(std::move(envelope));
}

void ActorMailbox::enqueue_system(Envelope&& envelope) {
  system_.push(std::move(envelope));
}

std::vector<Envelope> ActorMailbox::drain_system() {
  std::vector<Envelope> out;
  while (auto envelope = system_.pop()) out.push_back(std::move(*envelope));
  return out;
}

void ActorMailbox::close(Sink sink) {
  if (!closed()) {
    sink_ = std::move(sink);
    closed_.store(true, std::memory_order_seq_cst);
  }
  for (auto& envelope : queue_->do_drain()) sink_(std::move(envelope));
}

}  // namespace mailroom
