// One process of a shared dead-letter store, for the cross-process tests
// (tests/database/cross_process_test.cpp, tests/browser/shared_store.test.mjs):
// a system whose persistent store is mailroom.journal.url, an /user/orders
// actor that handles nothing (each order becomes an "unhandled" letter, and a
// replayed one comes back as the same entry), N orders sent to it and one
// letter to nobody (/user/gone). Optionally the DevTools server.
//   shared_store_node --system NAME --journal URL [--orders N] [--port P]
//     [--allow-writes] [--allowed-origin O]... [--panel-dir D] [--token T]
// Prints "Stream: <its stream>", "Attach: <panel url>" (with a server) and
// "Ready" once every letter is stored; runs until SIGTERM or SIGINT.
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"

using namespace mailroom;
using namespace std::chrono_literals;

namespace {

std::atomic<bool> running{true};
void on_signal(int) {
  running = false;
}

class Orders : public Actor {
 public:
  void receive(const Message& m) override { unhandled(m); }
  std::string class_name() const override { return "Orders"; }
};

}  // namespace

int main(int argc, char** argv) {
  std::string name, url;
  int orders = 3;
  bool server = false;
  DevtoolsOptions devtools;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    // A whole decimal number in [low, high], or the flag is named (std::stoi
    // would throw past main and abort).
    auto number = [&](int low, int high) -> int {
      const std::string text = value();
      int n = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (error != std::errc{} || end != text.data() + text.size() || n < low || n > high) {
        std::cerr << arg << " takes a whole number from " << low << " to " << high << ", not \""
                  << text << "\"\n";
        std::exit(2);
      }
      return n;
    };
    if (arg == "--system") {
      name = value();
    } else if (arg == "--journal") {
      url = value();
    } else if (arg == "--orders") {
      orders = number(0, 1000000);
    } else if (arg == "--port") {
      devtools.port = static_cast<std::uint16_t>(number(0, 65535));
      server = true;
    } else if (arg == "--allow-writes") {
      devtools.allow_writes = true;
    } else if (arg == "--allowed-origin") {
      devtools.allowed_origins.push_back(value());
    } else if (arg == "--panel-dir") {
      devtools.panel_dir = value();
    } else if (arg == "--token") {
      devtools.token = value();
    } else {
      std::cerr << "unknown argument " << arg << "\n";
      return 2;
    }
  }
  if (name.empty() || url.empty()) {
    std::cerr << "usage: shared_store_node --system NAME --journal URL [--orders N] [--port P] "
                 "[--allow-writes] [--allowed-origin O]... [--panel-dir D] [--token T]\n";
    return 2;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  auto options = ActorSystemOptions::create();
  options.with_config("mailroom.journal.url = \"" + url +
                      "\"\nmailroom.dead-letters.store = persistent\n");
  if (server) options.with_devtools(devtools);
  auto system = ActorSystem::create(name, std::move(options));
  DeadLetterQueue& queue = system->dead_letter_queue();
  const std::size_t before = queue.list().size();  // a restart keeps the previous run's

  ActorRef orders_ref = system->spawn([] { return std::make_unique<Orders>(); }, "orders");
  for (int i = 0; i < orders; ++i) {
    orders_ref.tell(std::string("order " + name + " " + std::to_string(i)));
  }
  system->actor_selection("/user/gone").tell(std::string("lost " + name));
  const auto deadline = std::chrono::steady_clock::now() + 10s;
  while (queue.list().size() < before + static_cast<std::size_t>(orders) + 1 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(5ms);
  }
  queue.flush();
  std::cout << "Stream: " << queue.settings().persistence_id << "\n";
  if (DevtoolsEndpoint* endpoint = system->devtools())
    std::cout << "Attach: " << endpoint->url() << "\n";
  std::cout << "Ready" << std::endl;

  while (running) std::this_thread::sleep_for(20ms);
  system->terminate();
  system->await_termination();
  return 0;
}
