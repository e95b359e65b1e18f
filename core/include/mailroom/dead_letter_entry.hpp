// One letter held by the dead-letter queue.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "mailroom/actor_ref.hpp"
#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

struct DeadLetterEntry {
  // The original message, unchanged (the very value that was sent).
  struct Captured {
    Message message;
  };
  // Only provenance survived (the journal copy could not be encoded and the
  // process restarted): cannot be replayed.
  struct Degraded {
    std::string class_name;
    std::string reason;
  };

  std::uint64_t id = 0;  // 1, 2, 3, ... per queue; continues after a restore
  // Its place in the queue's list (filled by list/get): ascending in capture
  // order, never reused by this queue (a replayed letter that comes back
  // takes a new one), whatever the clock did. DeadLetterFilter::before
  // continues a list after it.
  std::uint64_t position = 0;
  std::int64_t timestamp_ms = 0;
  std::string recipient_path;              // local path where it failed last
  std::optional<std::string> sender_path;  // nullopt when sent from outside any actor
  ActorRef sender;                         // live sender for replay; empty after a restore
  std::uint32_t replay_count = 0;
  bool quarantined = false;  // replay_count >= max-replays (filled by list/get)
  // Why it died (the latest time, for a replayed letter that came back); journaled.
  DeadLetterCause cause = DeadLetterCause::kUnknown;
  std::optional<DropReason> drop_reason;  // the policy that shed it (cause kDropped)
  std::variant<Captured, Degraded> payload;

  bool is_degraded() const noexcept { return std::holds_alternative<Degraded>(payload); }
};

}  // namespace mailroom
