// A priority mailbox: tickets come out most urgent first (lower number first),
// ties in arrival order. Capacity 4 with "drop-lowest-priority": when a fifth
// ticket arrives, the least urgent one queued (or the arrival) becomes a dead letter.
//   handled: P0 outage, P1 login broken, P2 slow page, P3 typo
//   dead letter: P4 feature idea
#include <iostream>
#include <memory>
#include <string>

#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/priority_mailbox_options.hpp"

struct Ticket {
  int priority;  // 0 = most urgent
  std::string title;
};

std::string describe(const Ticket& t) {
  return "P" + std::to_string(t.priority) + " " + t.title;
}

class Support : public mailroom::Actor {
 public:
  void receive(const mailroom::Message& message) override {
    if (const auto* ticket = message.get_if<Ticket>()) {
      std::cout << (first_ ? "handled: " : ", ") << describe(*ticket);
      first_ = false;
    }
  }
  void post_stop() override { std::cout << '\n'; }

 private:
  bool first_ = true;
};

int main() {
  auto dispatcher = std::make_shared<mailroom::ManualDispatcher>();
  auto system = mailroom::ActorSystem::create(
      "support", mailroom::ActorSystemOptions::create()
                     .with_dispatcher(dispatcher)
                     .with_dead_letters(mailroom::DeadLetterQueueOptions::create().with_store(
                         "memory")));  // default: off

  // The mailbox ranks each envelope; anything that is not a Ticket goes last.
  auto urgency = [](const mailroom::Envelope& envelope) {
    const auto* ticket = envelope.message.get_if<Ticket>();
    return ticket ? static_cast<double>(ticket->priority) : 100.0;
  };
  auto options = mailroom::ActorOptions::create().with_mailbox([urgency] {
    return std::make_shared<mailroom::PriorityMailbox>(
        mailroom::PriorityMailboxOptions::create()
            .with_priority_for(urgency)
            .with_capacity(4)
            .with_overflow(mailroom::OverflowPolicy::kDropLowestPriority)
            .with_dead_letter_drops(true));  // drops become dead letters (off by default)
  });
  mailroom::ActorRef support = system->spawn<Support>("support", options);

  for (const Ticket& t : {Ticket{2, "slow page"}, Ticket{4, "feature idea"}, Ticket{0, "outage"},
                          Ticket{3, "typo"}, Ticket{1, "login broken"}}) {
    support.tell(t);
  }
  dispatcher->run_until_idle();
  system->stop(support);
  dispatcher->run_until_idle();

  for (const auto& entry : system->dead_letter_queue().list()) {
    const auto& captured = std::get<mailroom::DeadLetterEntry::Captured>(entry.payload);
    std::cout << "dead letter: " << describe(captured.message.get<Ticket>()) << '\n';
  }
  system->terminate();
}
