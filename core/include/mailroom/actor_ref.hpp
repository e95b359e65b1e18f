// ActorRef: a cheap, copyable handle to an actor (or to a path that resolves to
// nothing). Declared here so mailboxes and envelopes can carry senders without
// depending on the runtime; its members are implemented by the runtime library.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "mailroom/message.hpp"

namespace mailroom {

namespace detail {
class ActorCell;
}

class ActorRef {
 public:
  ActorRef() = default;
  explicit ActorRef(std::shared_ptr<detail::ActorCell> cell) : cell_(std::move(cell)) {}

  bool valid() const noexcept { return cell_ != nullptr; }
  explicit operator bool() const noexcept { return valid(); }

  // --- implemented in the runtime library (core/src/runtime/actor_ref.cpp) ---
  // Full path, e.g. "mailroom://orders/user/checkout"; "" for an empty ref.
  const std::string& path() const;
  // Path without scheme and system, e.g. "/user/checkout".
  const std::string& local_path() const;
  // Enqueue as a user message. May throw MailboxFullError (reject policy).
  // A stopped actor or an empty/ghost ref turns the message into a dead letter.
  void tell(Message message, const ActorRef& sender = ActorRef()) const;
  void stop() const;  // PoisonPill as a user message: drain, then stop
  void kill() const;  // Kill as a user message: the actor fails (ActorKilledError)
  bool is_terminated() const;
  std::uint64_t uid() const;  // unique per actor incarnation (0 for empty)

  detail::ActorCell* cell() const noexcept { return cell_.get(); }
  const std::shared_ptr<detail::ActorCell>& cell_ptr() const noexcept { return cell_; }

  friend bool operator==(const ActorRef& a, const ActorRef& b) noexcept {
    return a.cell_ == b.cell_;
  }
  friend bool operator!=(const ActorRef& a, const ActorRef& b) noexcept { return !(a == b); }

 private:
  std::shared_ptr<detail::ActorCell> cell_;
};

struct ActorRefHash {
  std::size_t operator()(const ActorRef& r) const noexcept {
    return std::hash<const void*>()(r.cell());
  }
};

}  // namespace mailroom
