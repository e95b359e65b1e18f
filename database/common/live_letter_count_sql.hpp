// The SQL both database journals count live dead letters per stream with
// (Journal::count_letters): the rule of the mailroom_dead_letters view, on
// the dead-letter columns and their indexes only (no payload is read or
// parsed): a "captured" row with no later "captured" or "removed" row of the
// same letter and no later "cleared" row in its stream, which is what
// read_dead_letter_journal keeps when it folds the stream.
#pragma once

namespace mailroom::detail {

inline constexpr const char* kLiveLetterCountSql =
    "SELECT j.stream_id, count(*) FROM mailroom_journal j "
    "WHERE j.kind = 'captured' "
    "AND NOT EXISTS (SELECT 1 FROM mailroom_journal l WHERE l.stream_id = j.stream_id "
    "AND l.letter_id = j.letter_id AND l.seq > j.seq AND l.kind IN ('captured', 'removed')) "
    "AND NOT EXISTS (SELECT 1 FROM mailroom_journal c WHERE c.stream_id = j.stream_id "
    "AND c.kind = 'cleared' AND c.seq > j.seq) "
    "GROUP BY j.stream_id";

}  // namespace mailroom::detail
