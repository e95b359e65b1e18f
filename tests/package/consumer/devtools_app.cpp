// What a C++ user writes to open their process in the panel: one option
// (with_devtools), one link (mailroom::devtools_server from the installed
// package), no panel path.
// Prints the two URLs, makes one dead letter so the panel and /metrics have
// something to show, and serves until its standard input closes.
// scripts/test.d/80-package.sh runs it under tests/package/devtools_check.mjs.
#include <iostream>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/devtools_endpoint.hpp"

int main() {
  auto system = mailroom::ActorSystem::create(
      "consumer", mailroom::ActorSystemOptions::create()
                      .with_dead_letters(mailroom::DeadLetterQueueOptions::create().with_store(
                          "memory"))  // kept, so the panel lists it
                      .with_devtools());
  system->actor_selection("/user/nobody").tell(std::string("hello"));
  mailroom::DevtoolsEndpoint* devtools = system->devtools();
  if (devtools == nullptr) {
    std::cerr << "with_devtools() started no server\n";
    return 1;
  }
  std::cout << "DevTools: " << devtools->url() << "\nMetrics: " << devtools->metrics_url()
            << std::endl;
  for (std::string line; std::getline(std::cin, line);) {
  }
  system->terminate();
  system->await_termination();
  return 0;
}
