#include "mailroom/unbounded_mailbox.hpp"

#include <iterator>

namespace mailroom {

void UnboundedMailbox::do_enqueue(Envelope envelope) {
  user_.push(std::move(envelope));
}

void UnboundedMailbox::do_enqueue_signal(Envelope envelope) {
  do_enqueue(std::move(envelope));
}

std::size_t UnboundedMailbox::size() const {
  return front_size_.load(std::memory_order_acquire) + user_.size();
}

bool UnboundedMailbox::size_at_least(std::size_t n) const {
  return holds_at_least(n);
}

MailboxDescription UnboundedMailbox::describe() const {
  return {"unbounded", {}, {}, false};
}

std::optional<Envelope> UnboundedMailbox::do_dequeue() {
  return take();
}

std::optional<Envelope> UnboundedMailbox::take_unstashed() {
  Envelope first = std::move(front_.front());
  front_.pop_front();
  front_size_.store(front_.size(), std::memory_order_release);
  return first;
}

std::vector<Envelope> UnboundedMailbox::do_drain() {
  std::vector<Envelope> out(std::make_move_iterator(front_.begin()),
                            std::make_move_iterator(front_.end()));
  front_.clear();
  front_size_.store(0, std::memory_order_release);
  while (auto envelope = user_.pop()) out.push_back(std::move(*envelope));
  return out;
}

void UnboundedMailbox::do_prepend(std::vector<Envelope> envelopes) {
  front_.insert(front_.begin(), std::make_move_iterator(envelopes.begin()),
                std::make_move_iterator(envelopes.end()));
  front_size_.store(front_.size(), std::memory_order_release);
}

}  // namespace mailroom
