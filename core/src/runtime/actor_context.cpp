#include "mailroom/actor_context.hpp"

#include "actor_cell.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/errors.hpp"
#include "system_core.hpp"

namespace mailroom {

const ActorRef& ActorContext::self() const {
  return cell_.self_ref();
}
const ActorRef& ActorContext::sender() const {
  return cell_.current_sender();
}
const ActorRef& ActorContext::parent() const {
  return cell_.parent_ref();
}
const Logger& ActorContext::log() const {
  return cell_.logger();
}

ActorSystem& ActorContext::system() const {
  ActorSystem* system = cell_.system().facade();
  if (!system) throw IllegalStateError("the actor system is gone");
  return *system;
}

ActorRef ActorContext::spawn(ActorFactory factory, std::string name, ActorOptions options) {
  if (cell_.system().terminating()) {
    throw IllegalStateError("cannot spawn '" + name + "': the actor system is terminating");
  }
  return ActorRef(cell_.spawn_child(std::move(factory), std::move(name), std::move(options)));
}

void ActorContext::stop(const ActorRef& ref) {
  ref.stop();
}

std::vector<ActorRef> ActorContext::children() const {
  std::vector<ActorRef> out;
  for (auto& child : cell_.children()) out.emplace_back(std::move(child));
  return out;
}

void ActorContext::watch(const ActorRef& ref) {
  cell_.watch(ref);
}
void ActorContext::unwatch(const ActorRef& ref) {
  cell_.unwatch(ref);
}
void ActorContext::stash() {
  cell_.stash();
}
void ActorContext::unstash_all() {
  cell_.unstash_all();
}
std::size_t ActorContext::stash_size() const {
  return cell_.stash_size();
}
void ActorContext::become(Receive behaviour, bool discard_old) {
  cell_.become(std::move(behaviour), discard_old);
}
void ActorContext::unbecome() {
  cell_.unbecome();
}
Completion ActorContext::defer() {
  return cell_.defer();
}

}  // namespace mailroom
