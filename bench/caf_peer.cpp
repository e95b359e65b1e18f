#include "caf_peer.hpp"

#include <caf/all.hpp>

#include <future>
#include <thread>
#include <vector>

namespace mailroom::bench {
namespace {

caf::actor_system_config make_config(std::size_t workers) {
  caf::actor_system_config cfg;
  cfg.set("scheduler.max-threads", workers);
  cfg.set("logger.verbosity", caf::atom("quiet"));
  return cfg;
}

// Counts down and fulfils the promise at zero.
caf::behavior counting_sink(caf::event_based_actor* self, std::promise<void>* done,
                            std::size_t expected) {
  auto remaining = std::make_shared<std::size_t>(expected);
  return {[=](int) {
    if (--*remaining == 0) {
      done->set_value();
      self->quit();
    }
  }};
}

}  // namespace

void caf_one_to_one(std::size_t workers, std::size_t messages) {
  auto cfg = make_config(workers);
  caf::actor_system system{cfg};
  std::promise<void> done;
  auto sink = system.spawn(counting_sink, &done, messages);
  for (std::size_t i = 0; i < messages; ++i) caf::anon_send(sink, static_cast<int>(i));
  done.get_future().wait();
}

void caf_ping_pong(std::size_t workers, std::size_t round_trips) {
  auto cfg = make_config(workers);
  caf::actor_system system{cfg};
  std::promise<void> done;
  auto pong = system.spawn([](caf::event_based_actor* self) -> caf::behavior {
    return {[=](int n) { self->send(caf::actor_cast<caf::actor>(self->current_sender()), n); }};
  });
  auto ping = system.spawn(
      [&done, round_trips](caf::event_based_actor* self, caf::actor partner) -> caf::behavior {
        self->send(partner, 0);
        return {[=, &done](int n) {
          if (static_cast<std::size_t>(n + 1) == round_trips) {
            done.set_value();
            self->send_exit(partner, caf::exit_reason::user_shutdown);
            self->quit();
            return;
          }
          self->send(partner, n + 1);
        }};
      },
      pong);
  done.get_future().wait();
}

void caf_many_to_one(std::size_t workers, std::size_t senders, std::size_t per_sender) {
  auto cfg = make_config(workers);
  caf::actor_system system{cfg};
  std::promise<void> done;
  auto sink = system.spawn(counting_sink, &done, senders * per_sender);
  std::vector<std::thread> threads;
  for (std::size_t s = 0; s < senders; ++s)
    threads.emplace_back([&] {
      for (std::size_t i = 0; i < per_sender; ++i) caf::anon_send(sink, static_cast<int>(i));
    });
  for (auto& t : threads) t.join();
  done.get_future().wait();
}

}  // namespace mailroom::bench
