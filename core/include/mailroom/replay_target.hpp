// What the dead-letter queue needs from the runtime to replay a letter, kept
// abstract so the queue is testable without a running system.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "mailroom/actor_ref.hpp"
#include "mailroom/envelope.hpp"

namespace mailroom {

class ReplayTarget {
 public:
  virtual ~ReplayTarget() = default;
  // Resolve a path afresh to a live *user* actor ("/user/..." below the user
  // guardian). Accepts "mailroom://<system>/user/x", any "<scheme>://<system>/user/x"
  // whose system matches, and "/user/x". "", "/", "/user", "/system/...", other
  // systems and unknown paths give nullopt — never the root or a guardian.
  virtual std::optional<ActorRef> resolve_user_actor(std::string_view path) = 0;
  // Normalise a path the way resolve_user_actor reads it ("/user/x"), or "" if
  // it is not a path of this system.
  virtual std::string local_path(std::string_view path) const = 0;
  // Why a redirect path is malformed as written (ActorPath::malformation),
  // "" when it is not; the replay then answers unresolved-recipient, naming it.
  virtual std::string malformation(std::string_view /*path*/) const { return {}; }
  // Deliver as a user message, keeping envelope.sender. May throw MailboxFullError.
  virtual void deliver(const ActorRef& recipient, Envelope envelope) = 0;
};

}  // namespace mailroom
