// A program linking the installed SQLite journal (mailroom::journal_sqlite):
// its "sqlite:" URL scheme is registered by the link alone. Run twice on one
// file: the first run leaves two dead letters there, the second finds them.
//   journal_sqlite_app <file.db>
#include <iostream>
#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/journal_url.hpp"
#include "mailroom/manual_dispatcher.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: journal_sqlite_app <file.db>\n";
    return 2;
  }
  auto dispatcher = std::make_shared<mailroom::ManualDispatcher>();
  auto system = mailroom::ActorSystem::create(
      "orders",
      mailroom::ActorSystemOptions::create()
          .with_dispatcher(dispatcher)
          .with_dead_letters(mailroom::DeadLetterQueueOptions::create().with_store("persistent"))
          .with_journal(mailroom::open_journal_url(std::string("sqlite:") + argv[1])));
  const std::size_t found = system->dead_letter_queue().list().size();
  if (found == 0) {
    system->actor_selection("/user/billing").tell(std::string("order-1"));
    system->actor_selection("/user/billing").tell(std::string("order-2"));
    dispatcher->run_until_idle();
    system->dead_letter_queue().flush();
  }
  std::cout << "sqlite journal: found " << found << ", now "
            << system->dead_letter_queue().list().size() << " dead letters" << std::endl;
  system->terminate();
  return 0;
}
