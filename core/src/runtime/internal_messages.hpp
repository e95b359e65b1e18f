// The framework's system messages (never seen by user code). Each travels in
// an Envelope through ActorMailbox::enqueue_system.
#pragma once

#include <cstdint>
#include <exception>

#include "mailroom/actor_ref.hpp"

namespace mailroom::detail::sys {

struct Create {};     // build the instance, pre_start
struct Terminate {};  // stop now (parent stopping, supervisor's stop)
struct Resume {};     // supervisor: keep going
struct Restart {      // supervisor: new instance, same mailbox
  std::exception_ptr reason;
};
struct Failed {  // child -> parent
  ActorRef child;
  std::uint64_t uid;
  std::exception_ptr reason;
};
struct ChildTerminated {  // child -> parent, after the child is fully down
  ActorRef child;
};
struct Watch {  // watcher -> watchee
  ActorRef watcher;
};
struct Unwatch {
  ActorRef watcher;
};
struct CompletionDone {  // an async receive finished (or failed)
  std::uint64_t token;
  std::exception_ptr error;
};

}  // namespace mailroom::detail::sys

namespace mailroom::detail {
// What a deferred start parks as the cell's deferred envelope: when its
// completion fails, handle_failure recognises a failed start by it.
struct DeferredStart {};
}  // namespace mailroom::detail
