#include "stream_page.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

#include "dead_letter_page.hpp"
#include "devtools_json.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "protocol_error.hpp"

namespace mailroom::devtools {

using nlohmann::json;

namespace {

constexpr std::size_t kTextChunk = 256;  // letters read first when text narrows after the read

bool persistent(ActorSystem& system) {
  return system.dead_letter_queue().settings().store == DeadLetterStore::kPersistent;
}

// "mailroom-dead-letters-billing" -> "billing"; a custom persistence id as it is.
std::string system_of(const std::string& stream) {
  const std::string prefix = DeadLetterQueueSettings::default_persistence_id("");
  return stream.rfind(prefix, 0) == 0 ? stream.substr(prefix.size()) : stream;
}

json journaled_payload_json(const JournaledDeadLetter& letter) {
  if (letter.degraded()) {
    return json{
        {"kind", "degraded"}, {"className", letter.class_name}, {"reason", letter.degraded_reason}};
  }
  return json{{"kind", "captured"},
              {"type", letter.class_name},
              {"tag", *letter.tag},
              {"value", letter.value}};
}

json journaled_entry_json(const JournaledDeadLetter& letter, const std::string& stream) {
  return json{{"id", id_text(letter.id)},
              {"timestampMs", letter.timestamp_ms},
              {"recipientPath", letter.recipient_path},
              {"senderPath", letter.sender_path ? json(*letter.sender_path) : json(nullptr)},
              {"replayCount", letter.replay_count},
              {"quarantined", nullptr},
              {"cause", std::string(to_string(letter.cause))},
              {"dropPolicy", letter.drop_reason ? json(std::string(to_string(*letter.drop_reason)))
                                                : json(nullptr)},
              {"payload", journaled_payload_json(letter)},
              {"stream", stream}};
}

}  // namespace

json own_stream(ActorSystem& system) {
  if (!persistent(system)) return nullptr;
  return system.dead_letter_queue().settings().persistence_id;
}

json list_streams(ActorSystem& system) {
  DeadLetterQueue& queue = system.dead_letter_queue();
  const json own = own_stream(system);
  json streams = json::array();
  // Counted as a restore would fold each stream (tombstones delete), own letters too; by the
  // journal in one query where it can, so a request does not read every stream in full.
  for (const auto& [stream, size] : queue.stream_sizes()) {
    streams.push_back(json{{"stream", stream},
                           {"system", system_of(stream)},
                           {"size", size},
                           {"own", own.is_string() && own == stream}});
  }
  return json{{"own", own}, {"streams", std::move(streams)}};
}

json list_other_stream(ActorSystem& system, const std::string& stream, const json& params,
                       std::size_t default_limit, std::size_t max_limit) {
  DeadLetterQueue& queue = system.dead_letter_queue();
  const std::vector<std::string> known = queue.list_streams();
  if (std::find(known.begin(), known.end(), stream) == known.end()) {
    throw ProtocolError("bad-params",
                        "stream \"" + stream + "\" is not a dead-letter stream of this store");
  }
  ListPage page(list_query(params, default_limit, max_limit, stream_list_scope(stream)));
  // With text (matched here, after the read) the stream is read in chunks
  // continuing below the last letter read, each twice the last: a journal
  // that pages reads about what the page needs, one that folds the whole
  // stream per read is read O(log n) times, not n / chunk.
  DeadLetterFilter filter = page.query().filter;
  const bool chunked = !page.query().text.empty();
  if (chunked) filter.limit = std::max<std::size_t>(page.query().limit + 1, kTextChunk);
  for (bool full = false; !full;) {
    const std::vector<JournaledDeadLetter> read = queue.list_stream(stream, filter);
    for (const JournaledDeadLetter& letter : read) {
      if (!page.add(letter.recipient_path, letter.sequence, journaled_entry_json(letter, stream))) {
        full = true;
        break;
      }
    }
    if (!chunked || read.size() < *filter.limit) break;
    filter.before = read.back().sequence;
    filter.limit = *filter.limit * 2;
  }
  json result = std::move(page).result();
  result["stream"] = stream;
  result["own"] = false;
  return result;
}

}  // namespace mailroom::devtools
