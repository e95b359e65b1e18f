// The JSON shapes of the DevTools protocol's records: mailbox rows, dead-letter
// entries, the queue's settings and stats. The field names live only here
// (and in docs/devtools-protocol.md and the panel's types).
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "mailroom/actor_snapshot.hpp"
#include "mailroom/dead_letter_entry.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"

namespace mailroom {
class PayloadCodecRegistry;
}

namespace mailroom::devtools {

nlohmann::json row_json(const ActorSnapshot& row);
bool same_row(const ActorSnapshot& a, const ActorSnapshot& b);

// Ids cross as decimal strings: a JS number loses integers past 2^53.
std::string id_text(std::uint64_t id);
nlohmann::json entry_json(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs);
// The payload alone: {kind:"captured", type, tag, value} (tag/value null and
// "reason" set when no codec can encode it) or {kind:"degraded", className, reason}.
nlohmann::json payload_json(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs);

nlohmann::json settings_json(const DeadLetterQueueSettings& settings);
nlohmann::json stats_json(const DeadLetterQueue::Stats& stats);

}  // namespace mailroom::devtools
