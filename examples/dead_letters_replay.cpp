// Dead letters that survive a restart: orders sent to a billing actor that is
// not running yet land in a persistent dead-letter queue (a journal folder).
// A second run of the same system restores them, starts billing and replays
// each one to it.
//   run 1: 2 orders became dead letters (journal: <dir>)
//   run 2: restored 2 dead letters
//   billing charged order-1 (replay: replayed)
//   billing charged order-2 (replay: replayed)
//   run 2: 0 dead letters left
// Usage: dead_letters_replay [journal-dir]   (default: a fresh temporary folder)
#include <filesystem>
#include <iostream>
#include <string>

#include <unistd.h>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/replay_outcome.hpp"

using namespace std::string_literals;

class Billing : public mailroom::Actor {
 public:
  void receive(const mailroom::Message& message) override {
    if (const auto* order = message.get_if<std::string>()) {
      std::cout << "billing charged " << *order;
    }
  }
};

// Same name + same journal folder = the same dead-letter queue after a restart.
std::shared_ptr<mailroom::ActorSystem> open_shop(const std::string& journal_dir,
                                                 std::shared_ptr<mailroom::ManualDispatcher> d) {
  return mailroom::ActorSystem::create(
      "shop", mailroom::ActorSystemOptions::create()
                  .with_dispatcher(std::move(d))
                  .with_dead_letters(mailroom::DeadLetterQueueOptions::create().with_store(
                      "persistent"))  // strings, ints, doubles and bools journal out of the box
                  .with_journal_dir(journal_dir));
}

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const std::string dir =
      argc > 1 ? argv[1]
               : (fs::temp_directory_path() / ("mailroom-example-" + std::to_string(::getpid())))
                     .string();
  {
    auto dispatcher = std::make_shared<mailroom::ManualDispatcher>();
    auto shop = open_shop(dir, dispatcher);
    // Nobody lives at /user/billing yet: both become dead letters.
    shop->actor_selection("/user/billing").tell("order-1"s);
    shop->actor_selection("/user/billing").tell("order-2"s);
    dispatcher->run_until_idle();
    shop->dead_letter_queue().flush();
    std::cout << "run 1: " << shop->dead_letter_queue().list().size()
              << " orders became dead letters (journal: " << dir << ")\n";
    shop->terminate();
  }
  {
    auto dispatcher = std::make_shared<mailroom::ManualDispatcher>();
    auto shop = open_shop(dir, dispatcher);
    auto letters = shop->dead_letter_queue().list();
    std::cout << "run 2: restored " << letters.size() << " dead letters\n";
    shop->spawn<Billing>("billing");
    for (auto it = letters.rbegin(); it != letters.rend(); ++it) {  // oldest first
      mailroom::ReplayResult result = shop->dead_letter_queue().replay(it->id);
      dispatcher->run_until_idle();
      std::cout << " (replay: " << to_string(result.outcome) << ")\n";
    }
    std::cout << "run 2: " << shop->dead_letter_queue().list().size() << " dead letters left\n";
    shop->terminate();
  }
  if (argc == 1) fs::remove_all(dir);
}
