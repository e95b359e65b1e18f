// The cross-stream requests: deadLetters.streams (the dead-letter streams of
// the store this process writes to, a database other processes share) and
// deadLetters.list with a "stream" of another process, answered read-only
// from DeadLetterQueue::list_stream. Nothing here writes another stream: a
// letter of another stream is replayed by the process that owns it.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace mailroom {
class ActorSystem;
}

namespace mailroom::devtools {

// This process's own dead-letter stream (its persistence id), or null unless
// the queue is persistent (the welcome's "deadLetterStream").
nlohmann::json own_stream(ActorSystem& system);

// {own, streams: [{stream, system, size, own}]}, sorted by stream.
nlohmann::json list_streams(ActorSystem& system);

// deadLetters.list for params.stream, another process's stream: the same
// filters, cursor and page as the live list, entries with "stream" set and
// "quarantined" null (the owner's max-replays decides that). Result
// {stream, own: false, entries, nextCursor}. bad-params names a stream the
// store does not hold.
nlohmann::json list_other_stream(ActorSystem& system, const std::string& stream,
                                 const nlohmann::json& params, std::size_t default_limit,
                                 std::size_t max_limit);

}  // namespace mailroom::devtools
