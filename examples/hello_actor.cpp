// Hello, actor: define an actor, spawn it, send it a message, shut down.
//   $ ./hello_actor
//   Hello, world! (from /user/greeter, Mailroom 0.1.0)
#include <iostream>
#include <string>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/version.hpp"

using namespace std::string_literals;

class Greeter : public mailroom::Actor {
 public:
  void receive(const mailroom::Message& message) override {
    if (const auto* name = message.get_if<std::string>()) {
      std::cout << "Hello, " << *name << "! (from " << self().local_path() << ", Mailroom "
                << mailroom::version() << ")\n";
      system().terminate();  // one greeting is all this program is for
    } else {
      unhandled(message);  // anything else becomes a dead letter
    }
  }
};

int main() {
  auto system = mailroom::ActorSystem::create("hello");  // a thread-pool dispatcher
  mailroom::ActorRef greeter = system->spawn<Greeter>("greeter");
  greeter.tell("world"s);
  system->await_termination();
}
