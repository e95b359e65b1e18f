#include "devtools_json.hpp"

#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/payload_codec_registry.hpp"

namespace mailroom::devtools {

using nlohmann::json;

namespace {
template <class T>
json or_null(const std::optional<T>& value) {
  return value ? json(*value) : json(nullptr);
}
}  // namespace

json row_json(const ActorSnapshot& row) {
  return json{{"path", row.path},
              {"className", row.class_name},
              {"mailboxKind", row.mailbox_kind},
              {"capacity", or_null(row.capacity)},
              {"overflow", or_null(row.overflow)},
              {"userDepth", row.user_depth},
              {"systemDepth", row.system_depth},
              {"stashSize", row.stash_size},
              {"dropped", row.dropped},
              {"suspended", row.suspended},
              {"processed", row.processed},
              {"deadLetterDrops", row.dead_letter_drops}};
}

bool same_row(const ActorSnapshot& a, const ActorSnapshot& b) {
  return a.user_depth == b.user_depth && a.system_depth == b.system_depth &&
         a.stash_size == b.stash_size && a.dropped == b.dropped && a.suspended == b.suspended &&
         a.processed == b.processed && a.capacity == b.capacity && a.overflow == b.overflow &&
         a.mailbox_kind == b.mailbox_kind && a.class_name == b.class_name &&
         a.dead_letter_drops == b.dead_letter_drops;
}

std::string id_text(std::uint64_t id) {
  return std::to_string(id);
}

json payload_json(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs) {
  if (const auto* degraded = std::get_if<DeadLetterEntry::Degraded>(&entry.payload)) {
    return json{
        {"kind", "degraded"}, {"className", degraded->class_name}, {"reason", degraded->reason}};
  }
  const Message& message = std::get<DeadLetterEntry::Captured>(entry.payload).message;
  json out{{"kind", "captured"}, {"type", message.type_name()}};
  const PayloadCodecRegistry::EncodeResult encoded = codecs.encode(message);
  if (encoded.ok()) {
    out["tag"] = encoded.tagged->tag;
    out["value"] = encoded.tagged->value;
  } else {
    // Shown, not replayable from here: the panel renders type and reason.
    out["tag"] = nullptr;
    out["value"] = nullptr;
    out["reason"] = encoded.degraded.reason;
  }
  return out;
}

json entry_json(const DeadLetterEntry& entry, const PayloadCodecRegistry& codecs) {
  return json{{"id", id_text(entry.id)},
              {"timestampMs", entry.timestamp_ms},
              {"recipientPath", entry.recipient_path},
              {"senderPath", or_null(entry.sender_path)},
              {"replayCount", entry.replay_count},
              {"quarantined", entry.quarantined},
              {"cause", std::string(to_string(entry.cause))},
              {"dropPolicy", entry.drop_reason ? json(std::string(to_string(*entry.drop_reason)))
                                               : json(nullptr)},
              {"payload", payload_json(entry, codecs)}};
}

json settings_json(const DeadLetterQueueSettings& settings) {
  return json{
      {"store", std::string(to_string(settings.store))},
      {"maxEntries", settings.max_entries},
      {"retentionMs", settings.retention_ms > 0 ? json(settings.retention_ms) : json(nullptr)},
      {"maxReplays", settings.max_replays}};
}

json stats_json(const DeadLetterQueue::Stats& stats) {
  return json{{"size", stats.size},
              {"captured", stats.captured},
              {"returned", stats.returned},
              {"evicted", stats.evicted},
              {"agedOut", stats.aged_out},
              {"replayed", stats.replayed},
              {"replayFailed", stats.replay_failed},
              {"restored", stats.restored},
              {"captureFailures", stats.capture_failures}};
}

}  // namespace mailroom::devtools
