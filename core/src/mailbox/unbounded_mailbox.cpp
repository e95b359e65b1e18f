#include "mailroom/unbounded_mailbox.hpp"

#include <iterator>

namespace mailroom {

void UnboundedMailbox::enqueue(Envelope envelope) {
  std::lock_guard lock(mutex_);
  user_.push_back(std::move(envelope));
}

void UnboundedMailbox::enqueue_signal(Envelope envelope) {
  enqueue(std::move(envelope));
}

void UnboundedMailbox::enqueue_system(Envelope envelope) {
  std::lock_guard lock(mutex_);
  system_.push_back(std::move(envelope));
}

std::size_t UnboundedMailbox::size() const {
  std::lock_guard lock(mutex_);
  return user_.size();
}

std::size_t UnboundedMailbox::system_size() const {
  std::lock_guard lock(mutex_);
  return system_.size();
}

MailboxDescription UnboundedMailbox::describe() const {
  return {"unbounded", {}, {}, false};
}

namespace {
std::optional<Envelope> pop_front(std::deque<Envelope>& queue) {
  if (queue.empty()) return std::nullopt;
  Envelope front = std::move(queue.front());
  queue.pop_front();
  return front;
}
std::vector<Envelope> take_all(std::deque<Envelope>& queue) {
  std::vector<Envelope> out(std::make_move_iterator(queue.begin()),
                            std::make_move_iterator(queue.end()));
  queue.clear();
  return out;
}
}  // namespace

std::optional<Envelope> UnboundedMailbox::dequeue_system() {
  std::lock_guard lock(mutex_);
  return pop_front(system_);
}

std::optional<Envelope> UnboundedMailbox::dequeue_user() {
  std::lock_guard lock(mutex_);
  return pop_front(user_);
}

std::vector<Envelope> UnboundedMailbox::drain_user() {
  std::lock_guard lock(mutex_);
  return take_all(user_);
}

std::vector<Envelope> UnboundedMailbox::drain_system() {
  std::lock_guard lock(mutex_);
  return take_all(system_);
}

void UnboundedMailbox::prepend_user(std::vector<Envelope> envelopes) {
  std::lock_guard lock(mutex_);
  user_.insert(user_.begin(), std::make_move_iterator(envelopes.begin()),
               std::make_move_iterator(envelopes.end()));
}

}  // namespace mailroom
