// Published on the event stream (and logged) when an actor's user queue
// reaches 10,000 messages, and again at every doubling (20,000, 40,000, ...).
#pragma once

#include <cstddef>
#include <string>

#include "mailroom/actor_ref.hpp"

namespace mailroom {

struct MailboxSizeWarning {
  ActorRef actor;
  std::string path;  // local path, "/user/a"
  std::size_t size = 0;
};

}  // namespace mailroom
