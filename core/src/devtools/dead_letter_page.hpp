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

// The parameters of deadLetters.list, checked: the filter handed to the store
// (recipient, time window, where the cursor left off, a read limit when no
// text narrows after it), the payload text, the page size and where the last
// page ended.
struct ListQuery {
  // The last entry sent, by time then id (newest first).
  struct Cursor {
    std::int64_t timestamp_ms = 0;
    std::uint64_t id = 0;
  };
  DeadLetterFilter filter;
  std::string text;  // lower case; empty: no text filter
  std::size_t limit = 0;
  std::optional<Cursor> cursor;
};
ListQuery list_query(const nlohmann::json& params, std::size_t default_limit,
                     std::size_t max_limit);

// Collects one page from entries offered newest first (the live queue's or
// another stream's): skips those the cursor passed and those without the text.
class ListPage {
 public:
  explicit ListPage(ListQuery query) : query_(std::move(query)) {}
  const ListQuery& query() const noexcept { return query_; }
  // True for an entry at or before the cursor (sent on an earlier page).
  bool passed(std::int64_t timestamp_ms, std::uint64_t id) const noexcept;
  // Takes the entry unless the text filter leaves it out. False once the page
  // is full (nextCursor is then set): stop offering.
  bool add(const std::string& recipient, nlohmann::json entry);
  // {entries, nextCursor}
  nlohmann::json result() &&;

 private:
  ListQuery query_;
  nlohmann::json entries_ = nlohmann::json::array();
  nlohmann::json next_cursor_ = nullptr;
};

// {entries, nextCursor (null on the last page), revision}. Bad params throw
// ProtocolError("bad-params", ...) naming the field.
nlohmann::json list_page(ActorSystem& system, const nlohmann::json& params,
                         std::size_t default_limit, std::size_t max_limit);

// A limit in [1, max] (ProtocolError otherwise).
std::size_t page_limit(const nlohmann::json& value, std::size_t max);
// params.id as a decimal string or a non-negative integer.
std::uint64_t entry_id(const nlohmann::json& params);

}  // namespace mailroom::devtools
