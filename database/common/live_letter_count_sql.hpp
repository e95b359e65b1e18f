// The SQL both database journals count live dead letters per stream with
// (Journal::count_letters): the rule of the mailroom_dead_letters view, on
// the dead-letter columns and their indexes only (no payload is read or
// parsed): a "captured" row with no later "captured" or "removed" row of the
// same letter and no later "cleared" row in its stream, which is what
// read_dead_letter_journal keeps when it folds the stream.
#pragma once

#include <string>

namespace mailroom::detail {

// `sqlite` names the indexes: SQLite without ANALYZE statistics probes the
// later rows by the primary key (every later row of the stream per row:
// quadratic, 5.3 s for 10,000 letters); PostgreSQL plans it well by itself.
inline std::string live_letter_count_sql(bool sqlite) {
  const std::string by_letter = sqlite ? " INDEXED BY mailroom_journal_letter" : "";
  const std::string by_cleared = sqlite ? " INDEXED BY mailroom_journal_cleared" : "";
  return "SELECT j.stream_id, count(*) FROM mailroom_journal j "
         "WHERE j.kind = 'captured' "
         "AND NOT EXISTS (SELECT 1 FROM mailroom_journal l" +
         by_letter +
         " WHERE l.stream_id = j.stream_id "
         "AND l.letter_id = j.letter_id AND l.seq > j.seq AND l.kind IN ('captured', 'removed')) "
         "AND NOT EXISTS (SELECT 1 FROM mailroom_journal c" +
         by_cleared +
         " WHERE c.stream_id = j.stream_id "
         "AND c.kind = 'cleared' AND c.seq > j.seq) "
         "GROUP BY j.stream_id";
}

}  // namespace mailroom::detail
