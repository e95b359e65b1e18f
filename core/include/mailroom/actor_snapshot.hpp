// One row of ActorSystem::inspect(): what a mailbox panel shows for an actor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace mailroom {

struct ActorSnapshot {
  std::string path;          // local path, "/user/a/b"
  std::string class_name;    // Actor::class_name(); before the instance, the spawn hint
  std::string mailbox_kind;  // "unbounded", "bounded", "priority", or custom
  std::optional<std::size_t> capacity;
  std::optional<std::string> overflow;  // "drop-head", ... (none when unbounded)
  std::size_t user_depth = 0;
  std::size_t system_depth = 0;
  std::size_t stash_size = 0;
  std::uint64_t dropped = 0;
  bool suspended = false;
  std::uint64_t processed = 0;  // user messages taken from the mailbox
  bool dead_letter_drops = false;
};

}  // namespace mailroom
