// A native writer for the cross-target journal tests (tests/js/journal_cross_target.test.mjs):
//   journal_writer_tool <journal-dir> <system-name> <letters> [<start-at-epoch-ms>]
// (with a start time it waits for that instant first: the writer race tests
// release a native and Node writers at once),
// creates a native ActorSystem with a persistent dead-letter store in the folder, captures
// <letters> dead letters "native-0".. (std::string payloads) after those it restored,
// flushes, prints "ready", and
// keeps the system (and so the stream's writer lock) until stdin closes; then terminates.
// A stream another process writes: prints "locked: <what>" and exits 3.
#include <chrono>
#include <iostream>
#include <string>
#include <thread>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/journal_locked_error.hpp"

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::cerr << "usage: journal_writer_tool <journal-dir> <system-name> <letters> "
                 "[<start-at-epoch-ms>]\n";
    return 2;
  }
  using namespace mailroom;
  const int letters = std::stoi(argv[3]);
  if (argc == 5) {
    const std::chrono::system_clock::time_point at{std::chrono::milliseconds(std::stoll(argv[4]))};
    std::this_thread::sleep_until(at);
  }
  std::shared_ptr<ActorSystem> system;
  try {
    system = ActorSystem::create(
        argv[2], ActorSystemOptions::create().with_journal_dir(argv[1]).with_dead_letters(
                     DeadLetterQueueOptions::create().with_store("persistent")));
  } catch (const JournalLockedError& e) {
    std::cout << "locked: " << e.what() << std::endl;
    return 3;
  }
  const std::size_t wanted = system->dead_letter_queue().list().size() + letters;  // restored + new
  for (int i = 0; i < letters; ++i) {
    system->actor_selection("/user/gone").tell(std::string("native-") + std::to_string(i));
  }
  // Letters are captured on the dispatcher's threads: wait until all are in the queue.
  for (int spins = 0; system->dead_letter_queue().list().size() < wanted; ++spins) {
    if (spins > 10000) {
      std::cerr << "letters were not captured\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  system->dead_letter_queue().flush();
  std::cout << "ready" << std::endl;
  std::string line;
  while (std::getline(std::cin, line)) {
  }
  system->terminate();
  system->await_termination();
  return 0;
}
