// ActorSelection: a path resolved afresh at every tell. A path that resolves
// to nothing turns the message into a dead letter addressed to a ghost ref
// that carries the path.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mailroom/actor_ref.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

namespace detail {
class SystemCore;
}

class ActorSelection {
 public:
  ActorSelection(std::shared_ptr<detail::SystemCore> system, std::string path)
      : system_(std::move(system)), path_(std::move(path)) {}

  void tell(Message message, const ActorRef& sender = ActorRef()) const;
  std::optional<ActorRef> resolve() const;
  const std::string& path() const noexcept { return path_; }

 private:
  std::shared_ptr<detail::SystemCore> system_;
  std::string path_;
};

}  // namespace mailroom
