// A shared library (a plugin, a Python or Node extension) with the static
// Mailroom libraries inside it: they must be position-independent for this to
// link. It runs one actor and reports what it handled.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"

namespace {

class Counter final : public mailroom::Actor {
 public:
  explicit Counter(std::atomic<int>& seen) : seen_(seen) {}
  void receive(const mailroom::Message&) override { seen_.fetch_add(1); }

 private:
  std::atomic<int>& seen_;
};

}  // namespace

extern "C" int mailroom_plugin_count(int messages) {
  std::atomic<int> seen{0};
  auto system = mailroom::ActorSystem::create("plugin");
  auto ref = system->spawn([&seen] { return std::make_unique<Counter>(seen); }, "counter");
  for (int i = 0; i < messages; ++i) ref.tell(i);
  for (int wait = 0; seen.load() < messages && wait < 5000; ++wait) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  system->terminate();
  system->await_termination();
  return seen.load();
}
