// defer_start(): an asynchronous start. Called from inside Actor::pre_start()
// or Actor::post_restart() (the actor's own turn), it returns a Completion;
// until that is completed the actor takes no user message, exactly as a
// deferred receive holds it (system messages still run, so the actor can still
// be stopped). fail(error) is a failed start: the supervisor sees
// ActorInitializationError(path, error) and pre_restart gets no message.
// Anywhere else → IllegalStateError. Called twice in one hook: the same Completion.
#pragma once

#include "mailroom/actor_context.hpp"
#include "mailroom/completion.hpp"

namespace mailroom {

Completion defer_start(ActorContext& context);

}  // namespace mailroom
