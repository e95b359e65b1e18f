#include "dead_letter_page.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>

#include "devtools_json.hpp"
#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_entry_id.hpp"
#include "protocol_error.hpp"
#include "search_text_cache.hpp"

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
      if (auto id = parse_dead_letter_entry_id(v.get<std::string>())) return *id;
    } else if (v.is_number_unsigned()) {
      return v.get<std::uint64_t>();
    }
  }
  throw ProtocolError("bad-params", "id must be an entry id (a decimal string)");
}

namespace {

std::string hex64(std::uint64_t v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4) out[static_cast<std::size_t>(i)] = kDigits[v & 0xf];
  return out;
}

// The position a cursor of this scope names; a cursor of another scope, of
// another form or at no position (0) is refused.
std::optional<std::uint64_t> cursor_param(const json& params, const std::string& scope) {
  if (!params.contains("cursor") || params["cursor"].is_null()) return std::nullopt;
  const json& v = params["cursor"];
  std::optional<std::uint64_t> position;
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    if (text.size() > scope.size() + 1 && text.compare(0, scope.size(), scope) == 0 &&
        text[scope.size()] == '.') {
      position = parse_u64(std::string_view(text).substr(scope.size() + 1));
    }
  }
  if (!position || *position == 0) {
    throw ProtocolError("bad-cursor",
                        "cursor is not one this list gave out (malformed, of another list or of "
                        "an earlier run): start again without one");
  }
  return position;
}

}  // namespace

std::string live_list_scope(std::uint64_t list_epoch) {
  return "q" + hex64(list_epoch);
}

std::string stream_list_scope(const std::string& stream) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a: a stable name for the stream
  for (unsigned char c : stream) h = (h ^ c) * 0x100000001b3ull;
  return "s" + hex64(h);
}

ListQuery list_query(const json& params, std::size_t default_limit, std::size_t max_limit,
                     std::string scope) {
  ListQuery q;
  q.scope = std::move(scope);
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
    q.text = lower_ascii(params["text"].get<std::string>());
  }
  q.limit = params.contains("limit") ? page_limit(params["limit"], max_limit) : default_limit;
  // The store starts below the cursor's position and, without text, its own
  // limit bounds the read (one more says "more"): a page costs the page, not
  // every entry older than the cursor.
  q.filter.before = cursor_param(params, q.scope);
  if (q.text.empty()) q.filter.limit = q.limit + 1;
  return q;
}

bool ListPage::add(const std::string& recipient, std::uint64_t position, json entry) {
  if (!query_.text.empty()) {
    std::string haystack =
        recipient + ' ' + entry["payload"].dump(-1, ' ', false, json::error_handler_t::replace);
    if (!matches(lower_ascii(std::move(haystack)))) return true;
  }
  return take(position, std::move(entry));
}

bool ListPage::matches(const std::string& lowered) const {
  return query_.text.empty() || lowered.find(query_.text) != std::string::npos;
}

bool ListPage::take(std::uint64_t position, json entry) {
  if (entries_.size() == query_.limit) {
    next_cursor_ = query_.scope + "." + std::to_string(last_position_);
    return false;
  }
  entries_.push_back(std::move(entry));
  last_position_ = position;
  return true;
}

json ListPage::result() && {
  return json{{"entries", std::move(entries_)}, {"nextCursor", std::move(next_cursor_)}};
}

json list_page(ActorSystem& system, const json& params, std::size_t default_limit,
               std::size_t max_limit, SearchTextCache& texts) {
  DeadLetterQueue& queue = system.dead_letter_queue();
  ListPage page(list_query(params, default_limit, max_limit, live_list_scope(queue.list_epoch())));
  const std::uint64_t revision = queue.revision();
  const PayloadCodecRegistry& codecs = system.payload_codecs();
  // With text (matched on the payload's JSON, outside the queue's lock) the
  // queue is read in chunks, each continuing below the last entry read;
  // otherwise in one read.
  DeadLetterFilter filter = page.query().filter;
  // The text each letter is searched by is encoded once (texts), and the
  // whole entry only for the letters the page takes.
  const bool chunked = !page.query().text.empty();
  if (chunked) {
    filter.limit = std::max(page.query().limit + 1, kTextChunk);
    texts.bound(queue.stats().size);
  }
  const std::uint64_t epoch = queue.list_epoch();
  for (bool full = false; !full;) {
    const std::vector<DeadLetterEntry> read = queue.list(filter);
    for (const DeadLetterEntry& e : read) {
      if (chunked && !page.matches(texts.text(epoch, e, codecs))) continue;
      if (!page.take(e.position, entry_json(e, codecs))) {
        full = true;
        break;
      }
    }
    if (!chunked || read.size() < *filter.limit) break;
    filter.before = read.back().position;
  }
  json result = std::move(page).result();
  result["revision"] = revision;
  return result;
}

}  // namespace mailroom::devtools
