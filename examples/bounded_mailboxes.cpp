// Bounded mailboxes: the same five messages sent to a full mailbox of
// capacity 3 under each overflow policy. A ManualDispatcher runs nothing until
// we ask, so all five arrive before the actor reads one.
//   drop-head: processed 3 4 5; dead letters 1 2
//   drop-new:  processed 1 2 3; dead letters 4 5
//   reject:    processed 1 2 3; tell threw MailboxFullError for 4 5
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/bounded_mailbox_options.hpp"
#include "mailroom/dead_letter_filter.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/overflow_policy.hpp"

using mailroom::OverflowPolicy;

// Writes down every number it reads.
class Recorder : public mailroom::Actor {
 public:
  explicit Recorder(std::shared_ptr<std::vector<int>> seen) : seen_(std::move(seen)) {}
  void receive(const mailroom::Message& message) override {
    if (const int* n = message.get_if<int>()) seen_->push_back(*n);
  }

 private:
  std::shared_ptr<std::vector<int>> seen_;
};

void show(OverflowPolicy policy) {
  auto dispatcher = std::make_shared<mailroom::ManualDispatcher>();
  auto system = mailroom::ActorSystem::create(
      "bounded", mailroom::ActorSystemOptions::create()
                     .with_dispatcher(dispatcher)
                     .with_dead_letters(mailroom::DeadLetterQueueOptions::create().with_store(
                         "memory")));  // default: off
  auto seen = std::make_shared<std::vector<int>>();
  // with_mailbox_capacity(3).with_mailbox_overflow(policy) is the short form;
  // the factory form also turns drops into dead letters (off by default).
  auto options = mailroom::ActorOptions::create().with_mailbox([policy] {
    return std::make_shared<mailroom::BoundedMailbox>(mailroom::BoundedMailboxOptions::create()
                                                          .with_capacity(3)
                                                          .with_overflow(policy)
                                                          .with_dead_letter_drops(true));
  });
  mailroom::ActorRef recorder = system->spawn<Recorder>("recorder", options, seen);

  std::vector<int> rejected;
  for (int n = 1; n <= 5; ++n) {
    try {
      recorder.tell(n);
    } catch (const mailroom::MailboxFullError&) {  // only under "reject"
      rejected.push_back(n);
    }
  }
  dispatcher->run_until_idle();

  std::cout << to_string(policy) << ": processed";
  for (int n : *seen) std::cout << ' ' << n;
  if (!rejected.empty()) {
    std::cout << "; tell threw MailboxFullError for";
    for (int n : rejected) std::cout << ' ' << n;
  } else {
    std::cout << "; dead letters";
    mailroom::DeadLetterFilter to_recorder;
    to_recorder.recipient = "/user/recorder";
    auto letters = system->dead_letter_queue().list(to_recorder);
    for (auto it = letters.rbegin(); it != letters.rend(); ++it) {  // list() is newest first
      const auto& captured = std::get<mailroom::DeadLetterEntry::Captured>(it->payload);
      std::cout << ' ' << captured.message.get<int>();
    }
  }
  std::cout << '\n';
  system->terminate();
}

int main() {
  for (OverflowPolicy policy :
       {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    show(policy);
  }
}
