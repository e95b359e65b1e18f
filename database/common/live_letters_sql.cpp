#include "live_letters_sql.hpp"

#include <algorithm>
#include <limits>

#include "letter_filter_sql.hpp"

namespace mailroom::detail {

LiveLettersSql live_letters_sql(const std::string& stream, const JournalLetterFilter& filter,
                                std::optional<std::uint64_t> before, std::size_t limit,
                                char placeholder) {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  const std::string p(1, placeholder);
  const std::string s = "CAST(" + p + "1 AS TEXT)";
  const detail::LetterFilterSql narrow = letter_filter_sql(filter, 4, placeholder);
  // SQLite without ANALYZE statistics probes later rows by the primary key
  // (every later row of the stream, per row read: quadratic); name its indexes.
  const bool sqlite = placeholder == '?';
  const std::string by_letter = sqlite ? " INDEXED BY mailroom_journal_letter" : "";
  const std::string by_cleared = sqlite ? " INDEXED BY mailroom_journal_cleared" : "";
  LiveLettersSql out;
  // The cleared bound is one uncorrelated subquery (evaluated once); the
  // later-record checks use the letter index, one probe per row read.
  out.sql =
      "SELECT j.seq, j.payload, CAST(CASE WHEN EXISTS (SELECT 1 FROM mailroom_journal r" +
      by_letter +
      " WHERE r.stream_id = j.stream_id AND r.letter_id = j.letter_id AND r.seq > j.seq "
      "AND r.kind = 'released') THEN 1 ELSE 0 END AS BIGINT) "
      "FROM mailroom_journal j WHERE j.stream_id = " +
      s + " AND j.seq < CAST(" + p + "2 AS BIGINT)" +
      " AND j.seq > coalesce((SELECT max(c.seq) FROM mailroom_journal c" + by_cleared +
      " WHERE c.stream_id = " + s +
      " AND c.kind = 'cleared'), 0)"
      " AND j.kind = 'captured'"
      " AND NOT EXISTS (SELECT 1 FROM mailroom_journal l" +
      by_letter +
      " WHERE l.stream_id = j.stream_id"
      " AND l.letter_id = j.letter_id AND l.seq > j.seq AND l.kind IN ('captured', 'removed'))" +
      narrow.where + " ORDER BY j.seq DESC LIMIT CAST(" + p + "3 AS BIGINT)";
  out.params.emplace_back(stream);
  out.params.emplace_back(static_cast<std::int64_t>(before ? std::min(*before, kMax) : kMax));
  out.params.emplace_back(
      static_cast<std::int64_t>(std::min<std::uint64_t>(limit, static_cast<std::uint64_t>(kMax))));
  for (auto& param : narrow.params) out.params.push_back(param);
  return out;
}

}  // namespace mailroom::detail
