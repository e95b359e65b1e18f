// Helpers for runtime tests: a system on a ManualDispatcher with a silent log,
// a thread-safe event log, an actor made of lambdas and a dead-letter recorder.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_context.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_sink.hpp"
#include "mailroom/manual_dispatcher.hpp"

namespace mailroom::testing {

// An append-only, thread-safe list of strings: what happened, in order.
class EventLog {
 public:
  void add(std::string entry) {
    std::lock_guard lock(mutex_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() const {
    std::lock_guard lock(mutex_);
    return entries_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    entries_.clear();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> entries_;
};

// Records every captured letter (the system's sink slot).
class RecordingSink final : public DeadLetterSink {
 public:
  void capture(const DeadLetter& letter) noexcept override {
    std::lock_guard lock(mutex_);
    letters_.push_back(letter);
    if (on_capture) on_capture(letter);
  }
  std::vector<DeadLetter> letters() const {
    std::lock_guard lock(mutex_);
    return letters_;
  }
  std::function<void(const DeadLetter&)> on_capture;

 private:
  mutable std::mutex mutex_;
  std::vector<DeadLetter> letters_;
};

// The text of a string message, or its type name.
inline std::string text(const Message& m) {
  if (auto s = m.get_if<std::string>()) return *s;
  if (auto c = m.get_if<const char*>()) return *c;
  return m.type_name();
}

// An actor whose receive (and optional hooks) are lambdas; ctx() exposes the
// protected context so tests can stash, become, spawn, ...
class LambdaActor : public Actor {
 public:
  using Handler = std::function<void(LambdaActor&, const Message&)>;
  using Hook = std::function<void(LambdaActor&)>;

  explicit LambdaActor(Handler receive, Hook pre_start = {}, Hook post_stop = {})
      : receive_(std::move(receive)),
        pre_start_(std::move(pre_start)),
        post_stop_(std::move(post_stop)) {}

  void receive(const Message& m) override { receive_(*this, m); }
  void pre_start() override {
    if (pre_start_) pre_start_(*this);
  }
  void post_stop() override {
    if (post_stop_) post_stop_(*this);
  }
  std::string class_name() const override { return "LambdaActor"; }

  ActorContext& ctx() { return context(); }
  const ActorRef& me() { return self(); }
  const ActorRef& from() { return sender(); }
  void drop(const Message& m) { unhandled(m); }

 private:
  Handler receive_;
  Hook pre_start_, post_stop_;
};

inline ActorFactory lambda_actor(LambdaActor::Handler receive, LambdaActor::Hook pre_start = {},
                                 LambdaActor::Hook post_stop = {}) {
  return [=] { return std::make_unique<LambdaActor>(receive, pre_start, post_stop); };
}

// Logs "<prefix><text>" for every message.
inline ActorFactory recorder(std::shared_ptr<EventLog> log, std::string prefix = "") {
  return lambda_actor(
      [log, prefix](LambdaActor&, const Message& m) { log->add(prefix + text(m)); });
}

// A system on a ManualDispatcher whose log goes nowhere (tests assert on
// events, not on stderr), with a recording dead-letter sink.
struct ManualSystem {
  explicit ManualSystem(std::string name = "test", ActorSystemOptions options = {})
      : dispatcher(std::make_shared<ManualDispatcher>()), sink(std::make_shared<RecordingSink>()) {
    options.with_dispatcher(dispatcher)
        .with_dead_letter_sink(sink)
        .with_log_sink([](const LogEvent&) {});
    system = ActorSystem::create(std::move(name), std::move(options));
  }
  std::size_t run() { return dispatcher->run_until_idle(); }
  std::vector<std::string> dead_texts() const {
    std::vector<std::string> out;
    for (const auto& l : sink->letters()) out.push_back(text(l.message));
    return out;
  }

  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<RecordingSink> sink;
  std::shared_ptr<ActorSystem> system;
};

}  // namespace mailroom::testing
