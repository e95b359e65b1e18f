#include "mailroom_workloads.hpp"

#include <future>
#include <thread>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"

namespace mailroom::bench {
namespace {

std::shared_ptr<ActorSystem> make_system(std::size_t workers) {
  return ActorSystem::create("bench",
                             ActorSystemOptions::create()
                                 .with_dispatcher(std::make_shared<ThreadPoolDispatcher>(workers))
                                 .with_metrics(false)
                                 .with_log_sink([](const LogEvent&) {}));
}

// Counts down and fulfils the promise at zero.
class CountingSink : public Actor {
 public:
  CountingSink(std::promise<void>* done, std::size_t expected)
      : done_(done), remaining_(expected) {}
  void receive(const Message& message) override {
    if (message.is<int>() && --remaining_ == 0) done_->set_value();
  }

 private:
  std::promise<void>* done_;
  std::size_t remaining_;
};

class Pong : public Actor {
 public:
  void receive(const Message& message) override { sender().tell(message, self()); }
};

class Ping : public Actor {
 public:
  Ping(std::promise<void>* done, std::size_t round_trips, ActorRef partner)
      : done_(done), round_trips_(round_trips), partner_(std::move(partner)) {}
  void pre_start() override { partner_.tell(0, self()); }
  void receive(const Message& message) override {
    const int n = message.get<int>();
    if (static_cast<std::size_t>(n + 1) == round_trips_) {
      done_->set_value();
      return;
    }
    partner_.tell(n + 1, self());
  }

 private:
  std::promise<void>* done_;
  std::size_t round_trips_;
  ActorRef partner_;
};

void finish(const std::shared_ptr<ActorSystem>& system) {
  system->terminate();
  system->await_termination();
}

}  // namespace

void mailroom_one_to_one(std::size_t workers, std::size_t messages) {
  auto system = make_system(workers);
  std::promise<void> done;
  auto sink = system->spawn<CountingSink>("sink", ActorOptions::create().with_throughput(256),
                                          &done, messages);
  for (std::size_t i = 0; i < messages; ++i) sink.tell(static_cast<int>(i));
  done.get_future().wait();
  finish(system);
}

void mailroom_ping_pong(std::size_t workers, std::size_t round_trips) {
  auto system = make_system(workers);
  std::promise<void> done;
  auto pong = system->spawn<Pong>("pong");
  system->spawn<Ping>("ping", ActorOptions::create(), &done, round_trips, pong);
  done.get_future().wait();
  finish(system);
}

void mailroom_many_to_one(std::size_t workers, std::size_t senders, std::size_t per_sender) {
  auto system = make_system(workers);
  std::promise<void> done;
  auto sink = system->spawn<CountingSink>("sink", ActorOptions::create().with_throughput(256),
                                          &done, senders * per_sender);
  std::vector<std::thread> threads;
  for (std::size_t s = 0; s < senders; ++s)
    threads.emplace_back([&] {
      for (std::size_t i = 0; i < per_sender; ++i) sink.tell(static_cast<int>(i));
    });
  for (auto& t : threads) t.join();
  done.get_future().wait();
  finish(system);
}

}  // namespace mailroom::bench
