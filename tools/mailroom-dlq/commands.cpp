#include "commands.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/actor_path.hpp"
#include "time_text.hpp"

namespace mailroom::dlq {
namespace {

using nlohmann::json;

// "mailroom://shop/user/a" -> "/user/a" (the core's rule, ActorPath::to_local);
// a path it cannot read stays as it is (shown, matched only by itself).
std::string local_path(std::string_view path) {
  std::string local = ActorPath::to_local(path);
  return local.empty() ? std::string(path) : local;
}

// The core's subtree rule, on a name boundary: "/user/orders" covers
// "/user/orders/a", not "/user/orders-x".
bool in_subtree(const std::string& path, const std::string& root) {
  return ActorPath::in_subtree(local_path(path), root);
}

// The codec tag ("string", "int", a JS tag) is short and stable; a degraded
// payload has only its class name.
std::string payload_type(const JournaledDeadLetter& letter) {
  if (letter.tag) return *letter.tag;
  return letter.class_name.empty() ? "?" : letter.class_name;
}

// The shape of a DeadLetterEntry in the JS API and the panel's export file.
json entry_json(const JournaledDeadLetter& letter, std::uint32_t max_replays) {
  json payload;
  if (letter.degraded()) {
    payload = {
        {"kind", "degraded"}, {"className", letter.class_name}, {"reason", letter.degraded_reason}};
  } else {
    payload = {{"kind", "captured"}, {"message", letter.value}};
  }
  return {{"id", std::to_string(letter.id)},
          {"timestampMs", letter.timestamp_ms},
          {"recipientPath", letter.recipient_path},
          {"senderPath", letter.sender_path ? json(*letter.sender_path) : json(nullptr)},
          {"replayCount", letter.replay_count},
          {"quarantined", letter.replay_count >= max_replays},
          {"cause", std::string(to_string(letter.cause))},
          {"dropPolicy",
           letter.drop_reason ? json(std::string(to_string(*letter.drop_reason))) : json(nullptr)},
          {"payload", payload}};
}

// entry_json plus what only the journal knows: the codec tag, the record, the class.
json detailed_json(const JournaledDeadLetter& letter, std::uint32_t max_replays) {
  json j = entry_json(letter, max_replays);
  j["time"] = iso_utc(letter.timestamp_ms);
  j["tag"] = letter.tag ? json(*letter.tag) : json(nullptr);
  j["className"] = letter.class_name;
  j["sequence"] = letter.sequence;
  return j;
}

std::string dump(const json& j, int indent = -1) {
  return j.dump(indent, ' ', false, json::error_handler_t::replace);
}

// "dropped (drop-head)" for a shed letter, else the cause alone.
std::string cause_text(const JournaledDeadLetter& letter) {
  std::string text(to_string(letter.cause));
  if (letter.drop_reason) text += " (" + std::string(to_string(*letter.drop_reason)) + ")";
  return text;
}

std::string clip(std::string text, std::size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width - 3) + "...";
}

}  // namespace

void list_letters(const ReadJournal& journal, const ListFilter& filter, bool json_output,
                  std::ostream& out) {
  const std::optional<std::string> root =
      filter.recipient ? std::optional(local_path(*filter.recipient)) : std::nullopt;
  std::vector<const JournaledDeadLetter*> rows;
  const auto& letters = journal.contents.letters;
  for (auto it = letters.rbegin(); it != letters.rend(); ++it) {  // newest first
    if (filter.limit && rows.size() >= *filter.limit) break;
    if (root && !in_subtree(it->recipient_path, *root)) continue;
    if (filter.since_ms && it->timestamp_ms < *filter.since_ms) continue;
    rows.push_back(&*it);
  }
  if (json_output) {
    json array = json::array();
    for (const auto* letter : rows) array.push_back(detailed_json(*letter, journal.max_replays));
    out << dump(array, 2) << '\n';
    return;
  }
  if (rows.empty()) {
    out << "no dead letters match (" << letters.size() << " in the journal)\n";
    return;
  }
  out << std::left << std::setw(8) << "ID" << std::setw(26) << "TIME (UTC)" << std::setw(32)
      << "RECIPIENT" << std::setw(24) << "SENDER" << std::setw(22) << "CAUSE" << std::setw(8)
      << "REPLAYS"
      << "PAYLOAD\n";
  for (const auto* letter : rows) {
    std::string payload = payload_type(*letter);
    if (letter->degraded()) {
      payload += " (degraded: " + letter->degraded_reason + ")";
    } else {
      payload += " " + dump(letter->value);
    }
    out << std::left << std::setw(8) << letter->id << std::setw(26) << iso_utc(letter->timestamp_ms)
        << std::setw(32) << clip(letter->recipient_path, 31) << std::setw(24)
        << clip(letter->sender_path.value_or("-"), 23) << std::setw(22)
        << clip(cause_text(*letter), 21) << std::setw(8) << letter->replay_count
        << clip(payload, 60) << '\n';
  }
  out << rows.size() << " of " << letters.size() << " dead letters\n";
}

bool show_letter(const ReadJournal& journal, std::uint64_t id, std::ostream& out) {
  const auto& letters = journal.contents.letters;
  const auto it = std::find_if(letters.begin(), letters.end(),
                               [id](const auto& letter) { return letter.id == id; });
  if (it == letters.end()) return false;
  out << "id:          " << it->id << '\n'
      << "time:        " << iso_utc(it->timestamp_ms) << " (" << it->timestamp_ms << ")\n"
      << "recipient:   " << it->recipient_path << '\n'
      << "sender:      " << it->sender_path.value_or("-") << '\n'
      << "replays:     " << it->replay_count
      << (it->replay_count >= journal.max_replays ? " (quarantined)" : "") << '\n'
      << "cause:       " << cause_text(*it) << '\n'
      << "type:        " << (it->class_name.empty() ? payload_type(*it) : it->class_name) << '\n';
  if (it->degraded()) {
    out << "payload:     degraded, not replayable: " << it->degraded_reason << '\n';
  } else {
    out << "codec tag:   " << *it->tag << '\n' << "payload:\n" << dump(it->value, 2) << '\n';
  }
  return true;
}

void export_letters(const ReadJournal& journal, const std::string& format, std::int64_t now_ms,
                    std::ostream& out) {
  if (format == "jsonl") {
    for (const auto& letter : journal.contents.letters)
      out << dump(detailed_json(letter, journal.max_replays)) << '\n';
    return;
  }
  // The panel's export file: newest first, as the panel lists them.
  json letters = json::array();
  for (auto it = journal.contents.letters.rbegin(); it != journal.contents.letters.rend(); ++it) {
    letters.push_back(entry_json(*it, journal.max_replays));
  }
  const json file = {{"format", "mailroom-devtools-export"},
                     {"version", 1},
                     {"exportedAtMs", now_ms},
                     {"settings", nullptr},
                     {"mailboxes", json::array()},
                     {"deadLetters", letters}};
  out << dump(file, 2) << '\n';
}

void print_stats(const ReadJournal& journal, bool json_output, std::ostream& out) {
  const auto& c = journal.contents;
  std::map<std::string, std::size_t> by_recipient;
  std::map<std::string, std::size_t> by_type;
  std::size_t degraded = 0;
  std::optional<std::int64_t> oldest, newest;
  for (const auto& letter : c.letters) {
    ++by_recipient[letter.recipient_path];
    ++by_type[payload_type(letter)];
    if (letter.degraded()) ++degraded;
    oldest = std::min(oldest.value_or(letter.timestamp_ms), letter.timestamp_ms);
    newest = std::max(newest.value_or(letter.timestamp_ms), letter.timestamp_ms);
  }
  if (json_output) {
    json j = {{"persistenceId", journal.stream.persistence_id},
              {"file", journal.stream.path},
              {"format", journal.stream.format},
              {"letters", c.letters.size()},
              {"degraded", degraded},
              {"oldestMs", oldest ? json(*oldest) : json(nullptr)},
              {"newestMs", newest ? json(*newest) : json(nullptr)},
              {"records",
               {{"total", c.records},
                {"captured", c.captured_records},
                {"removed", c.removed_records},
                {"cleared", c.cleared_records},
                {"unknown", c.unknown_records},
                {"unreadable", c.unreadable.size()},
                {"firstSequence", c.first_sequence},
                {"lastSequence", c.last_sequence}}},
              {"byRecipient", by_recipient},
              {"byType", by_type},
              {"damaged", c.damaged},
              {"damage", c.damaged ? json({{"offset", c.damaged_at_offset}, {"what", c.damage}})
                                   : json(nullptr)}};
    out << dump(j, 2) << '\n';
    return;
  }
  out << "journal:     " << journal.stream.path << " (" << journal.stream.format << ", "
      << journal.stream.persistence_id << ")\n"
      << "letters:     " << c.letters.size() << " (" << degraded << " degraded)\n";
  if (oldest)
    out << "oldest:      " << iso_utc(*oldest) << "\nnewest:      " << iso_utc(*newest) << '\n';
  out << "records:     " << c.records << " (captured " << c.captured_records << ", removed "
      << c.removed_records << ", cleared " << c.cleared_records << ", unknown " << c.unknown_records
      << ", unreadable " << c.unreadable.size() << ")\n";
  if (c.records > 0) {
    out << "sequences:   " << c.first_sequence << ".." << c.last_sequence << '\n';
  }
  out << "damage:      "
      << (c.damaged ? c.damage + " at byte " + std::to_string(c.damaged_at_offset)
                    : std::string("none"))
      << '\n';
  if (!by_recipient.empty()) {
    out << "by recipient:\n";
    for (const auto& [path, n] : by_recipient)
      out << "  " << std::setw(8) << std::right << n << "  " << path << '\n';
    out << "by type:\n";
    for (const auto& [type, n] : by_type)
      out << "  " << std::setw(8) << std::right << n << "  " << type << '\n';
  }
}

}  // namespace mailroom::dlq
