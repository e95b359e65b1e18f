// The framework messages a user can send or receive. Kept together because
// they are one small vocabulary (the one exception to one-type-per-header).
#pragma once

#include "mailroom/actor_ref.hpp"

namespace mailroom {

// Sent to every watcher when a watched actor has stopped (through
// Mailbox::enqueue_signal, so a capacity never sheds it).
struct Terminated {
  ActorRef actor;
};

// A user message: the actor processes what was queued before it, then stops.
struct PoisonPill {};

// A user message: the actor fails with ActorKilledError (its supervisor decides;
// the default decider stops it).
struct Kill {};

}  // namespace mailroom
