// Envelope: what a mailbox actually queues — the message plus who sent it and
// a context slot for log/trace metadata.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "mailroom/actor_ref.hpp"
#include "mailroom/message.hpp"

namespace mailroom {

// Log (MDC-style) and trace metadata travelling with a message. Shared and
// immutable so copying an envelope stays cheap.
struct EnvelopeContext {
  std::string trace_id;
  std::map<std::string, std::string> log_context;
};

struct Envelope {
  Message message;
  ActorRef sender;  // empty when sent from outside any actor
  std::shared_ptr<const EnvelopeContext> context;
  // Non-zero when this envelope is a dead-letter replay: the id of the queue
  // entry it came from. Lets a letter that dead-letters again return as the
  // same entry (identity, never value comparison).
  std::uint64_t replay_entry = 0;
  // Set by a mailbox's enqueue_signal: a death notification the framework
  // cannot send again. Travels through the stash so unstashing never sheds it.
  bool signal = false;
};

}  // namespace mailroom
