// The dead-letter columns of a stored row, read from the record's JSON
// (core/src/deadletters/dead_letter_record.hpp): they feed the live-entries
// view and the per-recipient index, and stay null for any other payload.
#include <nlohmann/json.hpp>

#include "mailroom/database_journal.hpp"
#include "mailroom/tagged_json.hpp"

namespace mailroom {

DatabaseRow make_database_row(std::uint64_t sequence, std::string payload) {
  DatabaseRow row;
  row.sequence = sequence;
  // Deeper than any record the core writes: no columns (and no parse, which recurses).
  if (tagged_json::text_depth(payload) > tagged_json::kMaxDocumentDepth) {
    row.payload = std::move(payload);
    return row;
  }
  const nlohmann::json j = nlohmann::json::parse(payload, nullptr, /*allow_exceptions=*/false);
  row.payload = std::move(payload);
  if (!j.is_object()) return row;
  auto text = [&](const char* key) -> std::optional<std::string> {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return std::nullopt;
    return it->get<std::string>();
  };
  row.kind = text("k");
  if (!row.kind) return row;
  if (auto id = j.find("id"); id != j.end() && id->is_number_unsigned()) {
    row.letter_id = id->get<std::uint64_t>();
  }
  row.recipient = text("r");
  if (auto ts = j.find("ts"); ts != j.end() && ts->is_number_integer()) {
    row.timestamp_ms = ts->get<std::int64_t>();
  }
  return row;
}

}  // namespace mailroom
