#include "letter_filter_sql.hpp"

namespace mailroom::detail {

LetterFilterSql letter_filter_sql(const JournalLetterFilter& filter, int first_index,
                                  char placeholder) {
  LetterFilterSql out;
  if (filter.empty()) return out;
  int next = first_index;
  auto param = [&](std::variant<std::string, std::int64_t> value, const char* type) {
    out.params.push_back(std::move(value));
    // CAST: PostgreSQL cannot infer an untyped parameter inside length(); SQLite reads it too.
    return std::string("CAST(") + placeholder + std::to_string(next++) + " AS " + type + ")";
  };
  std::string keep;  // what a captured row must satisfy
  auto all = [&](const std::string& condition) {
    keep += (keep.empty() ? "" : " AND ") + condition;
  };
  if (filter.recipient_root) {
    std::string root = *filter.recipient_root;
    while (root.size() > 1 && root.back() == '/') root.pop_back();
    const std::string exact = param(root, "TEXT");
    const std::string below = param(root + "/", "TEXT");
    // The path itself or below it on a name boundary (byte-exact: substr, not LIKE,
    // which SQLite folds to ASCII case-insensitive).
    all("(recipient IS NULL OR recipient = " + exact + " OR substr(recipient, 1, length(" + below +
        ")) = " + below + " OR substr(recipient, 1, 1) <> '/')");
  }
  if (filter.since_ms) all("(ts_ms IS NULL OR ts_ms >= " + param(*filter.since_ms, "BIGINT") + ")");
  if (filter.until_ms) all("(ts_ms IS NULL OR ts_ms <= " + param(*filter.until_ms, "BIGINT") + ")");
  out.where = " AND (kind IS NULL OR kind <> 'captured' OR (" + keep + "))";
  return out;
}

}  // namespace mailroom::detail
