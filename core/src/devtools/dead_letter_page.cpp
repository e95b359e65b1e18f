#include "dead_letter_page.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

#include "devtools_json.hpp"
#include "mailroom/actor_system.hpp"
#include "protocol_error.hpp"

namespace mailroom::devtools {

using nlohmann::json;

namespace {

std::optional<std::uint64_t> parse_u64(std::string_view text) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<std::int64_t> time_param(const json& params, const char* name) {
  if (!params.contains(name)) return std::nullopt;
  const json& v = params[name];
  if (!v.is_number() || (v.is_number_float() && !std::isfinite(v.get<double>()))) {
    throw ProtocolError("bad-params", std::string(name) + " must be a number of milliseconds");
  }
  return v.get<std::int64_t>();
}

// Entries read at a time when a text filter runs after the read.
constexpr std::size_t kTextChunk = 256;

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::size_t page_limit(const json& value, std::size_t max) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
      static_cast<std::uint64_t>(value.get<std::int64_t>()) > max) {
    throw ProtocolError("bad-params",
                        "limit must be an integer in [1, " + std::to_string(max) + "]");
  }
  return static_cast<std::size_t>(value.get<std::int64_t>());
}

std::uint64_t entry_id(const json& params) {
  if (params.contains("id")) {
    const json& v = params["id"];
    if (v.is_string()) {
      if (auto id = parse_u64(v.get<std::string>())) return *id;
    } else if (v.is_number_unsigned()) {
      return v.get<std::uint64_t>();
    }
  }
  throw ProtocolError("bad-params", "id must be an entry id (a decimal string)");
}

namespace {

std::optional<ListQuery::Cursor> cursor_param(const json& params) {
  if (!params.contains("cursor") || params["cursor"].is_null()) return std::nullopt;
  if (!params["cursor"].is_string()) throw ProtocolError("bad-params", "cursor must be a string");
  const std::string text = params["cursor"].get<std::string>();
  const auto colon = text.find(':');
  std::optional<std::uint64_t> ts, id;
  if (colon != std::string::npos) {
    ts = parse_u64(std::string_view(text).substr(0, colon));
    id = parse_u64(std::string_view(text).substr(colon + 1));
  }
  if (!ts || !id) throw ProtocolError("bad-params", "cursor is not one this server gave out");
  return ListQuery::Cursor{static_cast<std::int64_t>(*ts), *id};
}

}  // namespace

ListQuery list_query(const json& params, std::size_t default_limit, std::size_t max_limit) {
  ListQuery q;
  if (params.contains("recipient")) {
    if (!params["recipient"].is_string()) {
      throw ProtocolError("bad-params", "recipient must be a path");
    }
    const std::string recipient = params["recipient"].get<std::string>();
    if (!recipient.empty()) q.filter.recipient = recipient;
  }
  q.filter.since_ms = time_param(params, "sinceMs");
  q.filter.until_ms = time_param(params, "untilMs");
  if (params.contains("text")) {
    if (!params["text"].is_string()) throw ProtocolError("bad-params", "text must be a string");
    q.text = lower(params["text"].get<std::string>());
  }
  q.limit = params.contains("limit") ? page_limit(params["limit"], max_limit) : default_limit;
  q.cursor = cursor_param(params);
  if (q.cursor) {
    q.filter.until_ms =
        std::min(q.filter.until_ms.value_or(q.cursor->timestamp_ms), q.cursor->timestamp_ms);
  }
  // The store starts after the cursor (by time then id, as passed() decides)
  // and, without text, its own limit bounds the read (one more says "more"):
  // a page costs the page, not every entry older than the cursor.
  if (q.cursor) q.filter.before = DeadLetterFilter::Position{q.cursor->timestamp_ms, q.cursor->id};
  if (q.text.empty()) q.filter.limit = q.limit + 1;
  return q;
}

bool ListPage::passed(std::int64_t timestamp_ms, std::uint64_t id) const noexcept {
  if (!query_.cursor) return false;
  const ListQuery::Cursor& c = *query_.cursor;
  return !(timestamp_ms < c.timestamp_ms || (timestamp_ms == c.timestamp_ms && id < c.id));
}

bool ListPage::add(const std::string& recipient, json entry) {
  if (!query_.text.empty()) {
    std::string haystack =
        recipient + ' ' + entry["payload"].dump(-1, ' ', false, json::error_handler_t::replace);
    if (lower(std::move(haystack)).find(query_.text) == std::string::npos) return true;
  }
  if (entries_.size() == query_.limit) {
    const json& last = entries_.back();
    next_cursor_ = std::to_string(last["timestampMs"].get<std::int64_t>()) + ":" +
                   last["id"].get<std::string>();
    return false;
  }
  entries_.push_back(std::move(entry));
  return true;
}

json ListPage::result() && {
  return json{{"entries", std::move(entries_)}, {"nextCursor", std::move(next_cursor_)}};
}

json list_page(ActorSystem& system, const json& params, std::size_t default_limit,
               std::size_t max_limit) {
  ListPage page(list_query(params, default_limit, max_limit));
  DeadLetterQueue& queue = system.dead_letter_queue();
  const std::uint64_t revision = queue.revision();
  const PayloadCodecRegistry& codecs = system.payload_codecs();
  // With text (matched on the payload's JSON, outside the queue's lock) the
  // queue is read in chunks, each continuing after the last entry read, while
  // that continues its order exactly; otherwise in one read.
  DeadLetterFilter filter = page.query().filter;
  const bool chunked = !page.query().text.empty() && queue.in_time_order();
  if (chunked) filter.limit = std::max(page.query().limit + 1, kTextChunk);
  for (bool full = false; !full;) {
    const std::vector<DeadLetterEntry> read = queue.list(filter);
    for (const DeadLetterEntry& e : read) {
      if (page.passed(e.timestamp_ms, e.id)) continue;
      if (!page.add(e.recipient_path, entry_json(e, codecs))) {
        full = true;
        break;
      }
    }
    if (!chunked || read.size() < *filter.limit) break;
    filter.before = DeadLetterFilter::Position{read.back().timestamp_ms, read.back().id};
  }
  json result = std::move(page).result();
  result["revision"] = revision;
  return result;
}

}  // namespace mailroom::devtools
