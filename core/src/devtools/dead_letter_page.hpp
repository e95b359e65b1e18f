// deadLetters.list: one page of the queue, newest first, narrowed by
// recipient subtree, time window and payload text, continued by a cursor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mailroom/dead_letter_filter.hpp"

namespace mailroom {
class ActorSystem;
}

namespace mailroom::devtools {

class SearchTextCache;

// A cursor is "<scope>.<position>": the position in the list's own order of
// the last entry sent (DeadLetterEntry::position on the live queue, the
// journal sequence on another stream), and the scope naming that list, so a
// cursor of another queue, another stream or an earlier run is refused
// (bad-cursor) instead of read as a position it is not.
std::string live_list_scope(std::uint64_t list_epoch);
std::string stream_list_scope(const std::string& stream);

// The parameters of deadLetters.list, checked: the filter handed to the store
// (recipient, time window, the position the cursor left off at, a read limit
// when no text narrows after it), the payload text, the page size and the
// list's scope.
struct ListQuery {
  DeadLetterFilter filter;
  std::string text;  // lower case; empty: no text filter
  std::size_t limit = 0;
  std::string scope;
};
ListQuery list_query(const nlohmann::json& params, std::size_t default_limit, std::size_t max_limit,
                     std::string scope);

// Collects one page from entries offered newest first, from the cursor's
// position on (the live queue's or another stream's): skips those without the text.
class ListPage {
 public:
  explicit ListPage(ListQuery query) : query_(std::move(query)) {}
  const ListQuery& query() const noexcept { return query_; }
  // Takes the entry (at `position` in the list) unless the text filter leaves
  // it out. False once the page is full (nextCursor is then set): stop offering.
  bool add(const std::string& recipient, std::uint64_t position, nlohmann::json entry);
  // The same in two steps, for a reader that keeps the searched text: does
  // `lowered` (the entry's text, lower case) hold the text filter's text, and
  // take an entry known to match.
  bool matches(const std::string& lowered) const;
  bool take(std::uint64_t position, nlohmann::json entry);
  // {entries, nextCursor}
  nlohmann::json result() &&;

 private:
  ListQuery query_;
  nlohmann::json entries_ = nlohmann::json::array();
  std::uint64_t last_position_ = 0;
  nlohmann::json next_cursor_ = nullptr;
};

// {entries, nextCursor (null on the last page), revision}. Bad params throw
// ProtocolError("bad-params", ...) naming the field, a cursor this list did
// not give out ProtocolError("bad-cursor", ...). A text query searches each
// letter's text as `texts` keeps it (encoded once per letter).
nlohmann::json list_page(ActorSystem& system, const nlohmann::json& params,
                         std::size_t default_limit, std::size_t max_limit, SearchTextCache& texts);

// A limit in [1, max] (ProtocolError otherwise).
std::size_t page_limit(const nlohmann::json& value, std::size_t max);
// params.id as a decimal string or a non-negative integer.
std::uint64_t entry_id(const nlohmann::json& params);

}  // namespace mailroom::devtools
