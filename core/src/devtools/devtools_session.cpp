// DevtoolsSession: the protocol's frame handling and its three streams. The
// shapes of the records are in devtools_json.cpp, the paged dead-letter list
// in dead_letter_page.cpp.
#include "mailroom/devtools_session.hpp"
#include "mailroom/tagged_json.hpp"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "dead_letter_page.hpp"
#include "devtools_json.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/metrics_registry.hpp"
#include "protocol_error.hpp"
#include "search_text_cache.hpp"
#include "stream_page.hpp"

namespace mailroom {

using devtools::ProtocolError;
using nlohmann::json;

namespace {

constexpr std::int64_t kDefaultIntervalMs[3] = {500, 1000,
                                                1000};  // mailboxes, deadLetters, metrics
constexpr std::int64_t kMaxIntervalMs = 60'000;
// One purge request names at most this many entries (a queue holds at most
// max-entries; a larger bulk purge is sent as several requests).
constexpr std::size_t kMaxRemoveIds = 10'000;
const char* const kStreamNames[3] = {"mailboxes", "deadLetters", "metrics"};
enum StreamId { kMailboxes = 0, kDeadLetters = 1, kMetrics = 2 };

std::optional<StreamId> stream_from_string(std::string_view name) {
  for (int i = 0; i < 3; ++i) {
    if (name == kStreamNames[i]) return static_cast<StreamId>(i);
  }
  return std::nullopt;
}

std::int64_t steady_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
}

}  // namespace

struct DevtoolsSession::State {
  struct Stream {
    bool on = false;
    std::uint64_t seq = 0;
    std::int64_t interval_ms = 0;
    std::int64_t next_at = 0;
    bool resync = false;
  };

  ActorSystem& system;
  DevtoolsSessionOptions options;
  Send send;
  Clock clock;
  bool greeted = false;
  bool closing = false;
  Stream streams[3];
  std::unordered_map<std::string, ActorSnapshot> rows;  // what the client holds
  std::uint64_t revision = 0;                           // dead letters the client holds
  std::size_t first_page = 0;
  std::string metrics_text;
  // deadLetters.list's text: each letter's searched text, encoded once.
  devtools::SearchTextCache search_texts;

  State(ActorSystem& s, DevtoolsSessionOptions o, Send f, Clock c)
      : system(s), options(std::move(o)), send(std::move(f)), clock(std::move(c)) {
    if (!clock) clock = steady_ms;
    if (options.node.empty()) options.node = system.name();
    first_page = options.first_page;
  }

  void emit(const json& frame) { send(frame.dump(-1, ' ', false, json::error_handler_t::replace)); }

  void error(const std::string& code, const std::string& message, const json* id = nullptr) {
    json frame{{"type", "error"}, {"code", code}, {"message", message}};
    if (id != nullptr) frame["id"] = *id;
    emit(frame);
  }

  json event(StreamId stream, const char* kind) {
    Stream& s = streams[stream];
    return json{{"type", "event"},
                {"stream", kStreamNames[stream]},
                {"seq", ++s.seq},
                {"kind", kind},
                {"timeMs", system.now_ms()}};
  }

  // ------------------------------------------------------------- frames --

  void receive(std::string_view text) {
    if (tagged_json::text_depth(text) > tagged_json::kMaxDocumentDepth) {
      // Refused before parsing: the parser recurses, and a frame must never
      // take the stack (and with it every system of a page) down.
      error("bad-frame", "a frame nested deeper than " +
                             std::to_string(tagged_json::kMaxDocumentDepth) + " levels");
      return;
    }
    json frame = json::parse(text, nullptr, false);
    if (frame.is_discarded() || !frame.is_object()) {
      error("bad-frame", "a frame is one JSON object");
      return;
    }
    const json* id = frame.contains("id") ? &frame["id"] : nullptr;
    if (!frame.contains("type") || !frame["type"].is_string()) {
      error("bad-frame", "a frame needs a string \"type\"", id);
      return;
    }
    const std::string type = frame["type"].get<std::string>();
    if (!greeted && type != "hello") {
      error("hello-required", "the first frame must be hello");
      closing = true;
      return;
    }
    try {
      if (type == "hello") {
        hello(frame);
      } else if (type == "subscribe") {
        subscribe(frame);
      } else if (type == "unsubscribe") {
        unsubscribe(frame);
      } else if (type == "request") {
        request(frame);
      } else {
        error("unknown-frame", "unknown frame type \"" + type + "\"", id);
      }
    } catch (const ProtocolError& e) {
      error(e.code(), e.what(), id);
    }
  }

  void hello(const json& frame) {
    if (greeted) throw ProtocolError("bad-frame", "hello was already received");
    const json* protocol = frame.contains("protocol") ? &frame["protocol"] : nullptr;
    if (protocol != nullptr && (!protocol->is_string() || *protocol != kProtocol)) {
      closing = true;
      throw ProtocolError("unsupported-version", "this server speaks mailroom-devtools");
    }
    if (!frame.contains("version") || !frame["version"].is_number_integer() ||
        frame["version"].get<std::int64_t>() != kVersion) {
      closing = true;
      throw ProtocolError("unsupported-version", "this server speaks version 1");
    }
    greeted = true;
    emit(json{{"type", "welcome"},
              {"protocol", kProtocol},
              {"version", kVersion},
              {"system", system.name()},
              {"node", options.node},
              {"writes", options.allow_writes},
              {"streams", {"mailboxes", "deadLetters", "metrics"}},
              {"methods",
               {"deadLetters.list", "deadLetters.replay", "deadLetters.remove",
                "deadLetters.release", "deadLetters.streams", "deadLetters.preview", "inspect"}},
              {"deadLetterStream", devtools::own_stream(system)},
              {"limits",
               {{"firstPage", options.first_page},
                {"maxPage", options.max_page},
                {"minIntervalMs", options.min_interval_ms}}},
              {"timeMs", system.now_ms()}});
  }

  StreamId stream_of(const json& frame) {
    if (!frame.contains("stream") || !frame["stream"].is_string()) {
      throw ProtocolError("bad-frame", "a string \"stream\" is required");
    }
    const std::string name = frame["stream"].get<std::string>();
    const auto stream = stream_from_string(name);
    if (!stream) throw ProtocolError("unknown-stream", "unknown stream \"" + name + "\"");
    return *stream;
  }

  void subscribe(const json& frame) {
    const StreamId stream = stream_of(frame);
    std::int64_t interval = kDefaultIntervalMs[stream];
    if (frame.contains("intervalMs")) {
      const json& v = frame["intervalMs"];
      if (!v.is_number_integer() || v.get<std::int64_t>() < options.min_interval_ms ||
          v.get<std::int64_t>() > kMaxIntervalMs) {
        throw ProtocolError("bad-params", "intervalMs must be an integer in [" +
                                              std::to_string(options.min_interval_ms) + ", " +
                                              std::to_string(kMaxIntervalMs) + "]");
      }
      interval = v.get<std::int64_t>();
    }
    if (stream == kDeadLetters) {
      first_page = options.first_page;
      if (frame.contains("limit"))
        first_page = devtools::page_limit(frame["limit"], options.max_page);
    }
    Stream& s = streams[stream];
    s = Stream{true, 0, interval, clock() + interval, false};
    snapshot(stream);
  }

  void unsubscribe(const json& frame) {
    const StreamId stream = stream_of(frame);
    streams[stream] = Stream{};
    if (stream == kMailboxes) rows.clear();
    if (stream == kMetrics) metrics_text.clear();
  }

  void request(const json& frame) {
    if (!frame.contains("id") || !(frame["id"].is_string() || frame["id"].is_number_integer())) {
      throw ProtocolError("bad-frame", "a request needs an \"id\" (string or integer)");
    }
    if (!frame.contains("method") || !frame["method"].is_string()) {
      throw ProtocolError("bad-frame", "a request needs a string \"method\"");
    }
    const std::string method = frame["method"].get<std::string>();
    static const json kEmpty = json::object();
    const json& params = frame.contains("params") ? frame["params"] : kEmpty;
    if (!params.is_object()) throw ProtocolError("bad-params", "params must be an object");
    json result;
    if (method == "deadLetters.list") {
      result = list(params);
    } else if (method == "deadLetters.streams") {
      result = devtools::list_streams(system);
    } else if (method == "deadLetters.replay") {
      require_own_stream(params);
      result = replay(params);
      // The entry left (or changed in) the queue: the delta goes out before the answer,
      // so no client acts on the replayed entry again while it waits for a poll.
      if (streams[kDeadLetters].on && !streams[kDeadLetters].resync) dead_letters_delta(false);
    } else if (method == "deadLetters.remove" || method == "deadLetters.release") {
      require_own_stream(params);
      result = method == "deadLetters.remove" ? remove(params) : release(params);
      // As for a replay: the delta (purged / updated) goes out before the answer.
      if (streams[kDeadLetters].on && !streams[kDeadLetters].resync) dead_letters_delta(false);
    } else if (method == "deadLetters.preview") {
      result = preview(params);
    } else if (method == "inspect") {
      result = inspect(params);
    } else {
      throw ProtocolError("unknown-method", "unknown method \"" + method + "\"");
    }
    emit(json{{"type", "response"}, {"id", frame["id"]}, {"method", method}, {"result", result}});
  }

  // The live queue's page, or (params.stream naming another process's stream
  // in the same store) that stream's letters, read-only.
  json list(const json& params) {
    if (params.contains("stream") && !params["stream"].is_null()) {
      if (!params["stream"].is_string()) {
        throw ProtocolError("bad-params", "stream must be a dead-letter stream id");
      }
      const std::string stream = params["stream"].get<std::string>();
      if (devtools::own_stream(system) != stream) {
        return devtools::list_other_stream(system, stream, params, options.first_page,
                                           options.max_page);
      }
    }
    return devtools::list_page(system, params, options.first_page, options.max_page, search_texts);
  }

  // A write naming a stream acts only on this process's own: a letter of
  // another stream is the other process's to replay (its endpoint), never ours.
  void require_own_stream(const json& params) {
    if (!params.contains("stream") || params["stream"].is_null()) return;
    if (!params["stream"].is_string()) {
      throw ProtocolError("bad-params", "stream must be a dead-letter stream id");
    }
    if (devtools::own_stream(system) != params["stream"]) {
      throw ProtocolError("not-owner", "stream \"" + params["stream"].get<std::string>() +
                                           "\" is written by another process: ask that process");
    }
  }

  json replay(const json& params) {
    if (!options.allow_writes) {
      throw ProtocolError("unavailable", "this server is read-only (writes are not allowed)");
    }
    const std::uint64_t id = devtools::entry_id(params);
    std::optional<std::string> path;
    if (params.contains("path")) {
      if (!params["path"].is_string()) throw ProtocolError("bad-params", "path must be a string");
      path = params["path"].get<std::string>();
    }
    const ReplayResult r = system.dead_letter_queue().replay(id, path);
    json out{{"outcome", std::string(to_string(r.outcome))}, {"recipientPath", r.recipient_path}};
    if (!r.malformed.empty()) out["malformed"] = r.malformed;
    return out;
  }

  void require_writes() const {
    if (!options.allow_writes) {
      throw ProtocolError("unavailable", "this server is read-only (writes are not allowed)");
    }
  }

  // Purge: {ids: ["3", "7"]} -> {results: [{id, outcome}]}, one per id in order.
  json remove(const json& params) {
    require_writes();
    if (!params.contains("ids") || !params["ids"].is_array()) {
      throw ProtocolError("bad-params", "ids must be an array of entry ids");
    }
    if (params["ids"].size() > kMaxRemoveIds) {
      throw ProtocolError("bad-params",
                          "at most " + std::to_string(kMaxRemoveIds) + " ids per request");
    }
    std::vector<std::uint64_t> ids;
    for (const json& v : params["ids"]) ids.push_back(devtools::entry_id(json{{"id", v}}));
    json results = json::array();
    for (const RemoveResult& r : system.dead_letter_queue().remove(ids)) {
      results.push_back(
          json{{"id", devtools::id_text(r.id)}, {"outcome", std::string(to_string(r.outcome))}});
    }
    return json{{"results", std::move(results)}};
  }

  // Lifts a quarantine: {id} -> {outcome: released | unknown-entry | not-quarantined}.
  json release(const json& params) {
    require_writes();
    const std::uint64_t id = devtools::entry_id(params);
    return json{{"outcome", std::string(to_string(system.dead_letter_queue().release(id)))}};
  }

  // Dry run of a replay, redirect or purge: {action: "replay" | "remove", ids,
  // path?} -> {results: [{id, outcome, recipientPath?}], mailboxes: [row]}.
  // The queue's own checks answer (preview_replay / preview_remove, the code
  // the real request runs), so a preview cannot disagree with what follows;
  // mailboxes holds the current row of each path a replay would deliver to
  // (its depth against capacity: the headroom at this moment). Read-only:
  // allowed without writes.
  json preview(const json& params) {
    if (!params.contains("action") || !params["action"].is_string()) {
      throw ProtocolError("bad-params", "action must be \"replay\" or \"remove\"");
    }
    const std::string action = params["action"].get<std::string>();
    if (action != "replay" && action != "remove") {
      throw ProtocolError("bad-params", "action must be \"replay\" or \"remove\"");
    }
    if (!params.contains("ids") || !params["ids"].is_array()) {
      throw ProtocolError("bad-params", "ids must be an array of entry ids");
    }
    if (params["ids"].size() > kMaxRemoveIds) {
      throw ProtocolError("bad-params",
                          "at most " + std::to_string(kMaxRemoveIds) + " ids per request");
    }
    std::optional<std::string> path;
    if (params.contains("path")) {
      if (action != "replay") throw ProtocolError("bad-params", "path is for a replay only");
      if (!params["path"].is_string()) throw ProtocolError("bad-params", "path must be a string");
      path = params["path"].get<std::string>();
    }
    std::vector<std::uint64_t> ids;
    for (const json& v : params["ids"]) ids.push_back(devtools::entry_id(json{{"id", v}}));
    DeadLetterQueue& queue = system.dead_letter_queue();
    json results = json::array();
    json mailboxes = json::array();
    if (action == "remove") {
      for (const RemoveResult& r : queue.preview_remove(ids)) {
        results.push_back(
            json{{"id", devtools::id_text(r.id)}, {"outcome", std::string(to_string(r.outcome))}});
      }
      return json{{"action", action}, {"results", std::move(results)}, {"mailboxes", mailboxes}};
    }
    std::set<std::string> targets;
    for (std::uint64_t id : ids) {
      const ReplayResult r = queue.preview_replay(id, path);
      json result{{"id", devtools::id_text(id)},
                  {"outcome", std::string(to_string(r.outcome))},
                  {"recipientPath", r.recipient_path}};
      if (!r.malformed.empty()) result["malformed"] = r.malformed;
      results.push_back(std::move(result));
      if (r.outcome == ReplayOutcome::kReplayed) targets.insert(r.recipient_path);
    }
    if (!targets.empty()) {
      for (const ActorSnapshot& row : system.inspect()) {
        if (targets.count(ActorPath::to_local(row.path)) > 0 || targets.count(row.path) > 0) {
          mailboxes.push_back(devtools::row_json(row));
        }
      }
    }
    return json{{"action", action}, {"results", std::move(results)}, {"mailboxes", mailboxes}};
  }

  json inspect(const json& params) {
    std::optional<std::string> path;
    if (params.contains("path")) {
      if (!params["path"].is_string()) throw ProtocolError("bad-params", "path must be a string");
      path = params["path"].get<std::string>();
    }
    json list = json::array();
    for (const ActorSnapshot& row : system.inspect()) {
      if (path && !ActorPath::in_subtree(row.path, *path)) continue;
      list.push_back(devtools::row_json(row));
    }
    return json{{"system", system.name()}, {"node", options.node}, {"rows", std::move(list)}};
  }

  // ------------------------------------------------------------ streams --

  void snapshot(StreamId stream) {
    streams[stream].resync = false;
    switch (stream) {
      case kMailboxes: {
        json frame = event(kMailboxes, "snapshot");
        json list = json::array();
        rows.clear();
        for (ActorSnapshot& row : system.inspect()) {
          list.push_back(devtools::row_json(row));
          std::string path = row.path;
          rows.emplace(std::move(path), std::move(row));
        }
        frame["rows"] = std::move(list);
        emit(frame);
        break;
      }
      case kDeadLetters: {
        DeadLetterQueue& queue = system.dead_letter_queue();
        // The revision is read first: a change racing the list is sent again
        // as a delta (clients upsert), never lost.
        revision = queue.revision();
        json frame = event(kDeadLetters, "snapshot");
        DeadLetterFilter filter;
        filter.limit = first_page;
        json entries = json::array();
        for (const DeadLetterEntry& e : queue.list(filter)) {
          entries.push_back(devtools::entry_json(e, system.payload_codecs()));
        }
        const DeadLetterQueue::Stats stats = queue.stats();
        frame["revision"] = revision;
        frame["settings"] = devtools::settings_json(queue.settings());
        frame["stats"] = devtools::stats_json(stats);
        frame["complete"] = entries.size() >= stats.size;
        frame["entries"] = std::move(entries);
        emit(frame);
        break;
      }
      case kMetrics: {
        metrics_text = system.metrics().scrape();
        json frame = event(kMetrics, "snapshot");
        frame["text"] = metrics_text;
        emit(frame);
        break;
      }
    }
  }

  void mailboxes_delta() {
    json changed = json::array();
    json removed = json::array();
    std::unordered_map<std::string, ActorSnapshot> next;
    for (ActorSnapshot& row : system.inspect()) {
      auto old = rows.find(row.path);
      if (old == rows.end() || !devtools::same_row(old->second, row)) {
        changed.push_back(devtools::row_json(row));
      }
      std::string path = row.path;
      next.emplace(std::move(path), std::move(row));
    }
    for (const auto& [path, row] : rows) {
      if (next.find(path) == next.end()) removed.push_back(path);
    }
    rows = std::move(next);
    // Sent every interval, changed or not: the panel's rates and sparklines tick on it.
    json frame = event(kMailboxes, "delta");
    frame["changed"] = std::move(changed);
    frame["removed"] = std::move(removed);
    emit(frame);
  }

  void dead_letters_delta(bool by_time) {
    DeadLetterQueue& queue = system.dead_letter_queue();
    // Between changes only the interval looks again (ageing happens on read).
    if (!by_time && queue.revision() == revision) return;
    const DeadLetterChanges changes = queue.changes_since(revision);
    if (!changes.complete) {
      snapshot(kDeadLetters);
      return;
    }
    if (changes.revision == revision) return;
    revision = changes.revision;
    json frame = event(kDeadLetters, "delta");
    const PayloadCodecRegistry& codecs = system.payload_codecs();
    json captured = json::array();
    for (const DeadLetterEntry& e : changes.captured)
      captured.push_back(devtools::entry_json(e, codecs));
    json updated = json::array();
    for (const DeadLetterEntry& e : changes.updated)
      updated.push_back(devtools::entry_json(e, codecs));
    json removed = json::array();
    for (const DeadLetterChanges::Removed& r : changes.removed) {
      removed.push_back(
          json{{"id", devtools::id_text(r.id)}, {"reason", std::string(to_string(r.reason))}});
    }
    frame["revision"] = revision;
    frame["captured"] = std::move(captured);
    frame["updated"] = std::move(updated);
    frame["removed"] = std::move(removed);
    frame["stats"] = devtools::stats_json(queue.stats());
    emit(frame);
  }

  void metrics_delta() {
    std::string text = system.metrics().scrape();
    if (text == metrics_text) return;
    metrics_text = std::move(text);
    json frame = event(kMetrics, "delta");
    frame["text"] = metrics_text;
    emit(frame);
  }

  void poll() {
    const std::int64_t now = clock();
    for (int i = 0; i < 3; ++i) {
      Stream& s = streams[i];
      if (!s.on) continue;
      const auto stream = static_cast<StreamId>(i);
      if (s.resync) {
        snapshot(stream);
        s.next_at = now + s.interval_ms;
        continue;
      }
      const bool due = now >= s.next_at;
      if (due) s.next_at = now + s.interval_ms;
      if (stream == kDeadLetters) {
        dead_letters_delta(due);
      } else if (due) {
        stream == kMailboxes ? mailboxes_delta() : metrics_delta();
      }
    }
  }
};

DevtoolsSession::DevtoolsSession(ActorSystem& system, DevtoolsSessionOptions options, Send send,
                                 Clock clock)
    : state_(
          std::make_unique<State>(system, std::move(options), std::move(send), std::move(clock))) {}

DevtoolsSession::~DevtoolsSession() = default;

void DevtoolsSession::receive(std::string_view frame) {
  try {
    state_->receive(frame);
  } catch (const std::exception& e) {
    try {
      state_->error("internal", e.what());
    } catch (...) {
    }
  } catch (...) {
  }
}

void DevtoolsSession::poll() {
  if (!state_->greeted) return;
  try {
    state_->poll();
  } catch (const std::exception& e) {
    try {
      state_->error("internal", e.what());
    } catch (...) {
    }
  } catch (...) {
  }
}

std::int64_t DevtoolsSession::next_poll_in_ms() const {
  std::int64_t soonest = -1;
  const std::int64_t now = state_->clock();
  for (const auto& s : state_->streams) {
    if (!s.on) continue;
    const std::int64_t in = s.resync ? 0 : std::max<std::int64_t>(0, s.next_at - now);
    soonest = soonest < 0 ? in : std::min(soonest, in);
  }
  return soonest;
}

bool DevtoolsSession::greeted() const noexcept {
  return state_->greeted;
}

bool DevtoolsSession::subscribed() const noexcept {
  for (const auto& s : state_->streams) {
    if (s.on) return true;
  }
  return false;
}

bool DevtoolsSession::watches_dead_letters() const noexcept {
  return state_->streams[kDeadLetters].on;
}

bool DevtoolsSession::should_close() const noexcept {
  return state_->closing;
}

void DevtoolsSession::resync() noexcept {
  for (auto& s : state_->streams) {
    if (s.on) s.resync = true;
  }
}

}  // namespace mailroom
