// system.deadLetterQueue for wasm/js/dead_letter_queue.js: entries and replay
// results as plain objects with full paths; ids are strings (as in the seed).
#include <emscripten/emscripten.h>

#include <cstdlib>

#include "api.hpp"
#include "conversions.hpp"
#include "error_records.hpp"
#include "js_hooks.hpp"
#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/dead_letter_entry_id.hpp"
#include "mailroom/dead_letter_store.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/release_outcome.hpp"
#include "mailroom/remove_outcome.hpp"
#include "mailroom/replay_outcome.hpp"
#include "system_registry.hpp"

namespace mailroom::wasm::api {

namespace {
DeadLetterQueue& queue_of(int system) {
  return SystemRegistry::instance().get(system).system->dead_letter_queue();
}

// An id not written exactly as the queue writes it ("", "01") never matches
// an entry (answers unknown-entry): the core's one rule.
std::uint64_t parse_id(const std::string& id) {
  return parse_dead_letter_entry_id(id).value_or(0);
}

val entry_to_js(const DeadLetterEntry& e, int system) {
  val out = val::object();
  out.set("id", std::to_string(e.id));
  out.set("timestampMs", static_cast<double>(e.timestamp_ms));
  out.set("recipientPath", full_path(e.recipient_path, system));
  out.set("senderPath", e.sender_path ? val(full_path(*e.sender_path, system)) : val::null());
  out.set("replayCount", static_cast<double>(e.replay_count));
  out.set("quarantined", e.quarantined);
  out.set("cause", std::string(to_string(e.cause)));
  if (e.drop_reason) out.set("dropPolicy", std::string(to_string(*e.drop_reason)));
  val payload = val::object();
  if (const auto* captured = std::get_if<DeadLetterEntry::Captured>(&e.payload)) {
    payload.set("kind", std::string("captured"));
    payload.set("message", message_to_js(captured->message, system));
  } else {
    const auto& degraded = std::get<DeadLetterEntry::Degraded>(e.payload);
    payload.set("kind", std::string("degraded"));
    payload.set("className", degraded.class_name);
    payload.set("reason", degraded.reason);
  }
  out.set("payload", payload);
  return out;
}
}  // namespace

val dlq_list(int system, val filter) {
  return guarded([&] {
    // The core reads the numbers (Infinity, NaN, fractions) the same way natively and here.
    const auto number = [&](const char* key) -> std::optional<double> {
      if (!filter[key].isNumber()) return std::nullopt;
      return filter[key].as<double>();
    };
    std::optional<std::string> recipient;
    if (filter["recipient"].isString()) recipient = filter["recipient"].as<std::string>();
    const DeadLetterFilter f = DeadLetterFilter::from_numbers(
        std::move(recipient), number("sinceMs"), number("untilMs"), number("limit"));
    val entries = val::array();
    for (const DeadLetterEntry& e : queue_of(system).list(f)) {
      entries.call<void>("push", entry_to_js(e, system));
    }
    val out = val::object();
    out.set("entries", entries);
    return out;
  });
}

val dlq_get(int system, std::string id) {
  return guarded([&] {
    val out = val::object();
    const std::uint64_t parsed = parse_id(id);
    auto entry = parsed == 0 ? std::nullopt : queue_of(system).get(parsed);
    if (entry) out.set("entry", entry_to_js(*entry, system));
    return out;
  });
}

val dlq_replay(int system, std::string id, val alternate) {
  return guarded([&] {
    std::optional<std::string> alt;
    if (alternate.isString()) alt = alternate.as<std::string>();
    const std::uint64_t parsed = parse_id(id);
    ReplayResult result;
    if (parsed != 0) result = queue_of(system).replay(parsed, alt);
    val out = val::object();
    out.set("kind", std::string(to_string(result.outcome)));
    if (result.outcome == ReplayOutcome::kQuarantined) {
      // As in the seed: how often the letter already came back.
      if (auto entry = queue_of(system).get(parsed)) {
        out.set("replayCount", static_cast<double>(entry->replay_count));
      }
    }
    if (result.outcome != ReplayOutcome::kUnknownEntry &&
        result.outcome != ReplayOutcome::kDegradedPayload) {
      out.set("recipientPath", full_path(result.recipient_path, system));
    }
    return out;
  });
}

val dlq_clear(int system) {
  return guarded([&] {
    DeadLetterQueue& q = queue_of(system);
    const double before = static_cast<double>(q.stats().size);
    q.clear();
    val out = val::object();
    out.set("removed", before);
    return out;
  });
}

// Purge: ids (strings) -> { results: [{ id, outcome }] }, one per id in order.
// A malformed id answers unknown-entry, as in dlq_get.
val dlq_remove(int system, val ids) {
  return guarded([&] {
    const auto length = ids["length"].as<unsigned>();
    std::vector<std::uint64_t> parsed;
    std::vector<std::string> texts;
    parsed.reserve(length);
    for (unsigned i = 0; i < length; ++i) {
      texts.push_back(ids[i].as<std::string>());
      parsed.push_back(parse_id(texts.back()));
    }
    const std::vector<RemoveResult> removed = queue_of(system).remove(parsed);
    val results = val::array();
    for (std::size_t i = 0; i < removed.size(); ++i) {
      val r = val::object();
      r.set("id", texts[i]);
      r.set("outcome", std::string(to_string(removed[i].outcome)));
      results.call<void>("push", r);
    }
    val out = val::object();
    out.set("results", results);
    return out;
  });
}

val dlq_release(int system, std::string id) {
  return guarded([&] {
    const std::uint64_t parsed = parse_id(id);
    const ReleaseOutcome outcome =
        parsed == 0 ? ReleaseOutcome::kUnknownEntry : queue_of(system).release(parsed);
    val out = val::object();
    out.set("kind", std::string(to_string(outcome)));
    return out;
  });
}

val dlq_settings(int system) {
  return guarded([&] {
    const DeadLetterQueueSettings& s = queue_of(system).settings();
    val out = val::object();
    out.set("store", std::string(to_string(s.store)));
    out.set("maxEntries", static_cast<double>(s.max_entries));
    out.set("retentionMs", static_cast<double>(s.retention_ms));
    out.set("maxReplays", static_cast<double>(s.max_replays));
    out.set("persistenceId", s.persistence_id);
    if (const auto bound = queue_of(system).sync_within_ms()) {
      out.set("syncWithinMs", static_cast<double>(*bound));
    }
    return out;
  });
}

val dlq_when_durable(int system, val done) {
  return guarded(
      [&] { queue_of(system).when_durable([done](std::string error) { done(error); }); });
}

val dlq_flush(int system) {
  return guarded([&] { queue_of(system).flush(); });
}

}  // namespace mailroom::wasm::api

// Deferred journal records (DeadLetterQueue::defer_journal_records): raw
// exports for wasm/js/driver.js, called once per system and once per slice
// (no embind, no result object).
namespace {
mailroom::DeadLetterQueue* live_queue(int system) {
  mailroom::wasm::SystemHandle* handle = mailroom::wasm::SystemRegistry::instance().find(system);
  return handle == nullptr ? nullptr : &handle->system->dead_letter_queue();
}
}  // namespace

extern "C" {

// The driver pumps this system's journal: a persistent capture queues its
// record, and the first one queued wakes the driver (the dispatcher's hook).
EMSCRIPTEN_KEEPALIVE void mr_dlq_defer_records(int system) {
  if (mailroom::DeadLetterQueue* queue = live_queue(system)) {
    queue->defer_journal_records([system] { mailroom::wasm::hooks()["wake"](system); });
  }
}

// Encodes queued records, oldest first, for about `micros` (the clock read
// every few records: a record costs several microseconds, a clock read much
// less); returns how many are still queued.
EMSCRIPTEN_KEEPALIVE int mr_dlq_pump(int system, double micros) {
  constexpr std::size_t kRecordsPerClockRead = 4;
  mailroom::DeadLetterQueue* queue = live_queue(system);
  if (queue == nullptr) return 0;
  std::size_t left = queue->pending_records();
  if (left == 0) return 0;
  const double deadline = emscripten_get_now() + micros / 1000.0;
  try {
    do {
      left = queue->encode_pending(kRecordsPerClockRead);
    } while (left > 0 && emscripten_get_now() < deadline);
  } catch (...) {
    // encode_pending reports what it cannot write; nothing unwinds into the event loop.
    left = queue->pending_records();
  }
  return static_cast<int>(left);
}

// The sync-within timer fired (armed through hooks.armJournalSync).
EMSCRIPTEN_KEEPALIVE void mr_dlq_sync_due(int system) {
  if (mailroom::DeadLetterQueue* queue = live_queue(system)) queue->sync_due();
}

EMSCRIPTEN_KEEPALIVE int mr_dlq_pending(int system) {
  mailroom::DeadLetterQueue* queue = live_queue(system);
  return queue == nullptr ? 0 : static_cast<int>(queue->pending_records());
}

}  // extern "C"
