// UnboundedMailbox: the default. FIFO, never drops; the heap is the only ceiling.
// (The size warning at 10,000 and each doubling is the actor cell's job: it sees
// size() after every enqueue.)
#pragma once

#include <deque>
#include <mutex>

#include "mailroom/mailbox.hpp"

namespace mailroom {

class UnboundedMailbox final : public Mailbox {
 public:
  void enqueue(Envelope envelope) override;
  void enqueue_signal(Envelope envelope) override;
  void enqueue_system(Envelope envelope) override;
  std::size_t size() const override;
  std::size_t system_size() const override;
  MailboxDescription describe() const override;

  std::optional<Envelope> dequeue_system() override;
  std::optional<Envelope> dequeue_user() override;
  std::vector<Envelope> drain_user() override;
  std::vector<Envelope> drain_system() override;
  void prepend_user(std::vector<Envelope> envelopes) override;

 private:
  mutable std::mutex mutex_;
  std::deque<Envelope> user_;
  std::deque<Envelope> system_;
};

}  // namespace mailroom
