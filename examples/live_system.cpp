// A live native system with the DevTools server on: the web demo's scenarios
// (telemetry drop-head, checkout reject with an outage, triage priority, a
// worker with deadLetterDrops, a poison message), for attaching the panel to a
// native process (npm run demo:native).
//   live_system [--port N] [--allow-writes] [--panel-dir DIR] [--token T] [--node NAME]
//               [--allowed-origin ORIGIN]... [--for-seconds S]
// (--token: keep the panel's URL across restarts, e.g. under a supervisor;
// default a random one per start. --node: the name the panel shows for this
// process, default "live". --allowed-origin: a page of another process's
// server that may attach here too, e.g. http://127.0.0.1:<its port>.)
// The server is one option, ActorSystemOptions::with_devtools, and one link,
// mailroom::devtools_server (examples/CMakeLists.txt); the system logs where
// to attach ("DevTools: http://127.0.0.1:<port>/?token=...") and stops the
// server at terminate.
#include <atomic>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "mailroom/actor.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/priority_mailbox.hpp"

using namespace mailroom;
using namespace std::chrono_literals;

namespace {

std::atomic<bool> running{true};

// The demo's messages: small records with codecs, so the panel shows their fields.
struct Reading {
  std::string sensor;
  double celsius;
  int seq;
};
struct Order {
  std::string order_id;
  double amount;
};
struct Ticket {
  std::string kind;  // urgent, normal, bulk
  std::string text;
};
struct Job {
  int job_id;
};
struct Poison {
  std::string account;
  std::string note;
};

std::shared_ptr<PayloadCodecRegistry> codecs() {
  using nlohmann::json;
  auto r = std::make_shared<PayloadCodecRegistry>();
  r->add<std::string>(
      "string", [](const std::string& v) { return json(v); },
      [](const json& j) { return j.get<std::string>(); });
  r->add<Reading>(
      "reading",
      [](const Reading& v) {
        return json{{"sensor", v.sensor}, {"celsius", v.celsius}, {"seq", v.seq}};
      },
      [](const json& j) {
        return Reading{j["sensor"], j["celsius"], j["seq"]};
      });
  r->add<Order>(
      "order",
      [](const Order& v) {
        return json{{"orderId", v.order_id}, {"amount", v.amount}, {"currency", "EUR"}};
      },
      [](const json& j) {
        return Order{j["orderId"], j["amount"]};
      });
  r->add<Ticket>(
      "ticket",
      [](const Ticket& v) {
        return json{{"kind", v.kind}, {"text", v.text}};
      },
      [](const json& j) {
        return Ticket{j["kind"], j["text"]};
      });
  r->add<Job>(
      "job",
      [](const Job& v) {
        return json{{"jobId", v.job_id}, {"attempt", 1}};
      },
      [](const json& j) { return Job{j["jobId"]}; });
  r->add<Poison>(
      "poison",
      [](const Poison& v) {
        return json{{"account", v.account}, {"note", v.note}};
      },
      [](const json& j) {
        return Poison{j["account"], j["note"]};
      });
  return r;
}

// Takes `cost` per message, so a fast producer fills its mailbox.
class Slow : public Actor {
 public:
  Slow(std::string name, std::chrono::microseconds cost) : name_(std::move(name)), cost_(cost) {}
  void receive(const Message& m) override {
    if (m.is<Poison>()) return unhandled(m);  // the ledger cannot book it
    std::this_thread::sleep_for(cost_);
  }
  std::string class_name() const override { return name_; }

 private:
  std::string name_;
  std::chrono::microseconds cost_;
};

ActorFactory slow(std::string name, std::chrono::microseconds cost) {
  return [=] { return std::make_unique<Slow>(name, cost); };
}

void on_signal(int) {
  running = false;
}

}  // namespace

int main(int argc, char** argv) {
  DevtoolsOptions devtools;
  int for_seconds = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    // A whole decimal number, or the flag is named (std::stoi would throw past main).
    auto number = [&]() -> int {
      const std::string text = value();
      int n = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (error != std::errc{} || end != text.data() + text.size()) {
        std::cerr << arg << " takes a whole number, not \"" << text << "\"\n";
        std::exit(2);
      }
      return n;
    };
    if (arg == "--port") {
      const int port = number();
      if (port < 0 || port > 65535) {
        std::cerr << "--port takes 0 (any free port) to 65535\n";
        return 2;
      }
      devtools.port = static_cast<std::uint16_t>(port);
    } else if (arg == "--allow-writes") {
      devtools.allow_writes = true;
    } else if (arg == "--panel-dir") {
      devtools.panel_dir = value();
    } else if (arg == "--token") {
      devtools.token = value();
    } else if (arg == "--node") {
      devtools.node = value();
    } else if (arg == "--allowed-origin") {
      devtools.allowed_origins.push_back(value());
    } else if (arg == "--for-seconds") {
      for_seconds = number();
    } else {
      std::cerr << "usage: live_system [--port N] [--allow-writes] [--panel-dir DIR] [--token T] "
                   "[--node NAME] [--allowed-origin ORIGIN]... [--for-seconds S]\n";
      return 2;
    }
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);

  auto options = ActorSystemOptions::create();
  options.with_payload_codecs(codecs())
      .with_dead_letters(
          DeadLetterQueueOptions::create().with_store("memory").with_max_entries(2000))
      .with_devtools(devtools);
  // Logs "DevTools: <url with this start's token>" and "Metrics: <url>".
  auto system = ActorSystem::create("live", std::move(options));
  std::cout << (devtools.allow_writes ? "Writes: allowed (replay works)\n"
                                      : "Writes: off (read-only; --allow-writes to replay)\n")
            << std::flush;

  ActorRef sensors = system->spawn(
      slow("SensorSink", 4ms), "sensors",
      ActorOptions::create().with_mailbox_capacity(200).with_mailbox_overflow("drop-head"));
  auto checkout_options = [] {
    return ActorOptions::create().with_mailbox_capacity(20).with_mailbox_overflow("reject");
  };
  ActorRef checkout = system->spawn(slow("Checkout", 30ms), "checkout", checkout_options());
  system->spawn(slow("CheckoutV2", 1ms), "checkout-v2");
  ActorRef triage =
      system->spawn(slow("Triage", 12ms), "triage", ActorOptions::create().with_mailbox([] {
        return std::make_shared<PriorityMailbox>(
            PriorityMailboxOptions::create()
                .with_priority_for([](const Envelope& e) {
                  const Ticket* t = e.message.get_if<Ticket>();
                  if (t == nullptr) return kUnrankablePriority;
                  return t->kind == "urgent" ? 0.0 : t->kind == "normal" ? 5.0 : 10.0;
                })
                .with_capacity(100)
                .with_overflow(OverflowPolicy::kDropLowestPriority));
      }));
  ActorRef worker =
      system->spawn(slow("BoundedWorker", 60ms), "worker", ActorOptions::create().with_mailbox([] {
        return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                    .with_capacity(30)
                                                    .with_overflow(OverflowPolicy::kDropNew)
                                                    .with_dead_letter_drops(true));
      }));
  ActorRef ledger = system->spawn(slow("Ledger", 1ms), "ledger");

  // One producer thread drives every scenario on a 5 ms beat.
  const char* kinds[] = {"bulk", "bulk", "bulk", "normal", "normal", "urgent"};
  const auto started = std::chrono::steady_clock::now();
  bool checkout_down = false;
  ledger.tell(Poison{"ACC-0042", "cannot be booked"});
  for (long beat = 0; running; ++beat) {
    std::this_thread::sleep_for(5ms);
    const auto elapsed = std::chrono::steady_clock::now() - started;
    if (for_seconds > 0 && elapsed > std::chrono::seconds(for_seconds)) break;
    const int n = static_cast<int>(beat);
    sensors.tell(Reading{"s-" + std::to_string(n % 8), 18.0 + (n % 80) / 10.0, n});
    if (beat % 3 == 0) triage.tell(Ticket{kinds[n % 6], "ticket " + std::to_string(n)});
    if (beat % 5 == 0) worker.tell(Job{n});
    if (beat % 4 == 0) {
      try {
        checkout.tell(Order{"o-" + std::to_string(n), 10.0 + n % 500});
      } catch (const MailboxFullError&) {
        // reject: the client carries the backpressure (it just skips this order here).
      }
    }
    // An outage every 20 s for 4 s: orders sent to the stopped checkout become dead letters.
    const long second = std::chrono::duration_cast<std::chrono::seconds>(elapsed).count();
    if (!checkout_down && second % 20 == 10) {
      try {
        system->stop(checkout);
        checkout_down = true;
      } catch (const MailboxFullError&) {
      }
    } else if (checkout_down && second % 20 == 14) {
      try {
        checkout = system->spawn(slow("Checkout", 30ms), "checkout", checkout_options());
        checkout_down = false;
      } catch (const std::exception&) {
        // The old incarnation is still stopping; the next beat tries again.
      }
    }
    if (beat % 3000 == 2999) ledger.tell(Poison{"ACC-" + std::to_string(n), "cannot be booked"});
  }
  system->terminate();  // stops the DevTools server too
  system->await_termination();
  return 0;
}
