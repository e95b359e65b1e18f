#include "mailroom/actor.hpp"

#include <typeinfo>

#include "actor_cell.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "system_core.hpp"

namespace mailroom {

Actor::Actor() : context_(detail::constructing_context()) {}

ActorContext& Actor::context() const {
  if (!context_) throw IllegalStateError("this actor was not created by an actor system");
  return *context_;
}

const ActorRef& Actor::self() const {
  return context().self();
}
const ActorRef& Actor::sender() const {
  return context().sender();
}
ActorSystem& Actor::system() const {
  return context().system();
}
const Logger& Actor::log() const {
  return context().log();
}
void Actor::unhandled(const Message& message) const {
  context().cell_.unhandled(message);
}

void Actor::pre_restart(std::exception_ptr /*reason*/, const Message* /*message*/) {
  // Children go at once (not by PoisonPill); the restart waits for them.
  context().cell_.terminate_children();
  post_stop();
}

void Actor::post_restart(std::exception_ptr /*reason*/) {
  pre_start();
}

std::string Actor::class_name() const {
  return demangle(typeid(*this).name());
}

SupervisorStrategy Actor::supervisor_strategy() const {
  return SupervisorStrategy();
}

}  // namespace mailroom
