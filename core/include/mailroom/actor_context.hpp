// ActorContext: what an actor may do with the runtime. Owned by the actor's
// cell; valid for the actor's whole life. Only the actor's own thread may call
// it (from receive and the lifecycle hooks), except self()/parent().
#pragma once

#include <memory>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_ref.hpp"
#include "mailroom/completion.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

class ActorSystem;
class Logger;

class ActorContext {
 public:
  static constexpr std::size_t kStashCapacity = 1024;

  explicit ActorContext(detail::ActorCell& cell) : cell_(cell) {}
  ActorContext(const ActorContext&) = delete;
  ActorContext& operator=(const ActorContext&) = delete;

  const ActorRef& self() const;
  const ActorRef& sender() const;  // of the message being processed; empty otherwise
  const ActorRef& parent() const;
  ActorSystem& system() const;
  const Logger& log() const;

  // A child. Name rules and errors as ActorSystem::spawn.
  ActorRef spawn(ActorFactory factory, std::string name, ActorOptions options = {});
  template <class A, class... Args>
  ActorRef spawn(std::string name, ActorOptions options = {}, Args&&... args) {
    // The type is known now, before the instance: the class hint.
    if (options.class_name().empty()) options.with_class_name(demangle(typeid(A).name()));
    return spawn([=]() -> std::unique_ptr<Actor> { return std::make_unique<A>(args...); },
                 std::move(name), std::move(options));
  }
  void stop(const ActorRef& ref);          // PoisonPill (self or any actor)
  std::vector<ActorRef> children() const;  // live children, by name
  void watch(const ActorRef& ref);
  void unwatch(const ActorRef& ref);

  // Parks the current envelope (a deferred receive's until it completes), at
  // most once. Past kStashCapacity → StashOverflowError; outside receive, or
  // twice for one message → IllegalStateError.
  void stash();
  // Everything stashed back to the front of the mailbox, in stash order. A
  // MailboxFullError (reject) leaves the stash intact and propagates.
  void unstash_all();
  std::size_t stash_size() const;

  // Replace the current behaviour (discard_old) or push onto it.
  void become(Receive behaviour, bool discard_old = true);
  // Back to the previous behaviour (or receive()).
  void unbecome();

  // Async receive: the actor takes no further user message until the returned
  // completion is completed or failed. Only inside receive (IllegalStateError).
  Completion defer();

 private:
  friend class Actor;  // default pre_restart stops children at once (not by PoisonPill)
  detail::ActorCell& cell_;
};

}  // namespace mailroom
