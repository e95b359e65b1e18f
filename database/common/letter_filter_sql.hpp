// The SQL both database journals add to a stream read to narrow it by a
// JournalLetterFilter, on the dead-letter columns (kind, recipient, ts_ms):
// only "captured" rows are ever left out, the others (tombstones, foreign
// records) always read. Rows whose recipient is not a local path are kept
// too: the dead-letter queue decides those by its own rule.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom::detail {

struct LetterFilterSql {
  std::string where;  // " AND (...)", empty for an empty filter
  std::vector<std::variant<std::string, std::int64_t>> params;  // in placeholder order
};

// `placeholder(n)` spells the n-th parameter ("?3" for SQLite, "$3" for
// PostgreSQL); numbering starts at first_index.
LetterFilterSql letter_filter_sql(const JournalLetterFilter& filter, int first_index,
                                  char placeholder);

}  // namespace mailroom::detail
