#pragma once
// A system whose persistent dead-letter store is chosen by mailroom.journal.url,
// driven by a ManualDispatcher: the database tests' way to lose a letter.
#include <memory>
#include <string>
#include <utility>

#include "mailroom/actor_system.hpp"
#include "mailroom/manual_dispatcher.hpp"

namespace mailroom::testing {

struct UrlSystem {
  UrlSystem(const std::string& name, const std::string& journal_url)
      : dispatcher(std::make_shared<ManualDispatcher>()) {
    system = ActorSystem::create(
        name, ActorSystemOptions::create()
                  .with_dispatcher(dispatcher)
                  .with_config("mailroom.journal.url = \"" + journal_url +
                               "\"\nmailroom.dead-letters.store = persistent\n"));
  }
  ~UrlSystem() {
    system->terminate();
    dispatcher->run_until_idle();
  }
  UrlSystem(const UrlSystem&) = delete;
  UrlSystem& operator=(const UrlSystem&) = delete;

  // A selection to nowhere: the text becomes a dead letter of `path`.
  void lose(const std::string& path, std::string text) {
    system->actor_selection(path).tell(std::move(text));
    dispatcher->run_until_idle();
  }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }

  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
};

}  // namespace mailroom::testing
