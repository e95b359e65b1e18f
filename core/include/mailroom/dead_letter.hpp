// DeadLetter: a message the system could not deliver, naming the actor it did
// not reach (not the dead-letter office). Published on the event stream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "mailroom/actor_ref.hpp"
#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

struct DeadLetter {
  Message message;
  ActorRef sender;     // may be empty
  ActorRef recipient;  // may be a ghost ref (a path that resolved to nothing)
  // Local paths ("/user/checkout"), filled by the runtime so consumers of a
  // letter never need the runtime to name it. sender_path is "" when none.
  std::string recipient_path;
  std::string sender_path;
  // Copied from the envelope: non-zero when the letter is a replayed entry
  // that failed again (the queue then updates that entry instead of adding one).
  std::uint64_t replay_entry = 0;
  // Why it died, set by the runtime where the letter is made.
  DeadLetterCause cause = DeadLetterCause::kPublished;
  // The mailbox policy that shed it (cause kDropped only).
  std::optional<DropReason> drop_reason;
};

}  // namespace mailroom
