// Actor: user behaviour. The runtime creates it through an ActorFactory,
// calls receive one message at a time, and replaces the instance on restart.
#pragma once

#include <exception>
#include <functional>
#include <memory>
#include <string>

#include "mailroom/actor_ref.hpp"
#include "mailroom/message.hpp"
#include "mailroom/supervisor_strategy.hpp"

namespace mailroom {

class Actor;
class ActorContext;
class ActorSystem;
class Logger;

using ActorFactory = std::function<std::unique_ptr<Actor>()>;
using Receive = std::function<void(const Message&)>;

class Actor {
 public:
  // Picks up the context of the cell that is constructing it, so context(),
  // self() and log() already work in a constructor.
  Actor();
  virtual ~Actor() = default;
  Actor(const Actor&) = delete;
  Actor& operator=(const Actor&) = delete;

  virtual void receive(const Message& message) = 0;
  virtual void pre_start() {}
  virtual void post_stop() {}
  // Default: stops every child, then post_stop().
  virtual void pre_restart(std::exception_ptr reason, const Message* message);
  // Default: pre_start().
  virtual void post_restart(std::exception_ptr reason);
  // Default: the demangled dynamic type.
  virtual std::string class_name() const;
  // Applied to this actor's children, except a child spawned with its own
  // ActorOptions strategy. Default: SupervisorStrategy() (restart; stop on
  // Kill and on initialization failures).
  virtual SupervisorStrategy supervisor_strategy() const;

 protected:
  ActorContext& context() const;
  const ActorRef& self() const;
  const ActorRef& sender() const;  // empty when none
  ActorSystem& system() const;
  const Logger& log() const;
  // Turns `message` into a dead letter (recipient self, sender the current sender).
  void unhandled(const Message& message) const;

 private:
  ActorContext* context_;
};

}  // namespace mailroom
