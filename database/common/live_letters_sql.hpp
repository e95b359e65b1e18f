// The SQL both database journals read one page of a stream's live dead
// letters with (Journal::read_live_letters): the rule of the
// mailroom_dead_letters view (a "captured" row with no later "captured" or
// "removed" row of the same letter and no later "cleared" row in its stream),
// newest first by seq below a bound, with LIMIT, narrowed like read_letters.
// On the primary key (stream_id, seq) read backwards from the bound and the
// letter and cleared indexes, so a page reads the page plus the rows it skips,
// never the stream: no schema change, an existing database pages as it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom::detail {

struct LiveLettersSql {
  // Columns: seq, payload, released (1 when a later "released" row lifted the
  // letter's quarantine, which read_dead_letter_journal folds as count 0).
  std::string sql;
  std::vector<std::variant<std::string, std::int64_t>> params;  // in placeholder order
};

// `placeholder` is '?' (SQLite) or '$' (PostgreSQL).
LiveLettersSql live_letters_sql(const std::string& stream, const JournalLetterFilter& filter,
                                std::optional<std::uint64_t> before, std::size_t limit,
                                char placeholder);

}  // namespace mailroom::detail
