#include "pg_backend.hpp"

#include <stdexcept>

#include "../common/letter_filter_sql.hpp"
#include "../common/live_letter_count_sql.hpp"
#include "../common/live_letters_sql.hpp"
#include "mailroom/journal_database_errors.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/postgres_journal.hpp"
#include "pg_schema.hpp"

namespace mailroom::detail {
namespace {

constexpr std::int64_t kLockSeed = 20261201;  // advisory keys: hashtextextended(stream, seed)
constexpr int kReadPage = 10000;

// Rows per INSERT are bounded by the batch; 7 parameters per row stay far
// under the protocol's 65535.
std::string insert_sql(std::size_t rows) {
  std::string sql =
      "INSERT INTO mailroom_journal (stream_id, seq, payload, kind, letter_id, recipient, ts_ms) "
      "VALUES ";
  int p = 2;
  for (std::size_t i = 0; i < rows; ++i) {
    sql += i ? ",(" : "(";
    sql += "$1";
    for (int c = 0; c < 6; ++c) sql += ",$" + std::to_string(p++);
    sql += ")";
  }
  return sql + " ON CONFLICT (stream_id, seq) DO NOTHING RETURNING seq";
}

template <class T>
PgParam optional_number(const std::optional<T>& v) {
  return v ? PgParam::number(static_cast<std::int64_t>(*v)) : PgParam::null();
}

PgParam optional_text(const std::optional<std::string>& v) {
  return v ? PgParam::text(*v) : PgParam::null();
}

}  // namespace

PostgresBackend::PostgresBackend(const std::string& conninfo, bool read_only)
    : db_(conninfo, "postgresql " + redact_conninfo(conninfo)), read_only_(read_only) {
  db_.ensure();
  if (read_only_) {
    const int version = pg_schema_version(db_);
    if (version == 0) throw JournalSchemaError(location(), "not a Mailroom journal (no schema)");
    if (version > kPgSchemaVersion) {
      throw JournalSchemaError(location(), "schema version " + std::to_string(version) +
                                               " is newer than this build knows");
    }
  } else {
    migrate_pg_schema(db_);
  }
}

void PostgresBackend::ensure() {
  if (!db_.ensure()) return;
  // A new session holds no locks: take each stream again, or fence it.
  std::set<std::string> before;
  before.swap(held_);
  for (const std::string& stream : before) {
    if (try_lock(stream)) {
      held_.insert(stream);
    } else {
      fenced_[stream] = holder_of(stream);
    }
  }
}

template <class F>
auto PostgresBackend::once_more_if_dropped(F&& f) -> decltype(f()) {
  ensure();
  try {
    return f();
  } catch (const JournalUnavailableError&) {
    if (db_.connected()) throw;  // the server answered: no point asking again
    ensure();
    return f();
  }
}

bool PostgresBackend::try_lock(const std::string& stream) {
  auto r = db_.exec("SELECT pg_try_advisory_lock(hashtextextended($1, $2))",
                    {PgParam::text(stream), PgParam::number(kLockSeed)}, "locking the stream");
  return std::string(PQgetvalue(r.get(), 0, 0)) == "t";
}

std::string PostgresBackend::holder_of(const std::string& stream) {
  auto r = db_.exec(
      "WITH k AS (SELECT hashtextextended($1, $2) AS key) "
      "SELECT a.pid, coalesce(a.application_name, ''), coalesce(host(a.client_addr), 'local') "
      "FROM k, pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid "
      "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1 "
      "AND l.classid::bigint = ((k.key >> 32) & 4294967295) "
      "AND l.objid::bigint = (k.key & 4294967295)",
      {PgParam::text(stream), PgParam::number(kLockSeed)}, "finding the stream's writer");
  if (PQntuples(r.get()) == 0) return "another session (gone by now)";
  return "server session " + std::string(PQgetvalue(r.get(), 0, 0)) + " of '" +
         PQgetvalue(r.get(), 0, 1) + "' from " + PQgetvalue(r.get(), 0, 2);
}

std::uint64_t PostgresBackend::highest(const std::string& stream) {
  auto r = db_.exec(
      "SELECT greatest(coalesce((SELECT max(seq) FROM mailroom_journal WHERE stream_id = $1), 0), "
      "(SELECT deleted_up_to FROM mailroom_streams WHERE stream_id = $1))",
      {PgParam::text(stream)}, "reading the highest sequence");
  return PQgetisnull(r.get(), 0, 0) ? 0 : std::stoull(PQgetvalue(r.get(), 0, 0));
}

std::uint64_t PostgresBackend::acquire(const std::string& stream) {
  if (read_only_) throw std::logic_error("journal " + location() + " is open read-only");
  once_more_if_dropped([&] { return db_.exec("SELECT 1", "checking the connection"); });
  if (!held_.count(stream)) {
    if (!try_lock(stream)) throw JournalLockedError(stream, location(), holder_of(stream));
    held_.insert(stream);
    fenced_.erase(stream);
  }
  db_.exec("INSERT INTO mailroom_streams (stream_id) VALUES ($1) ON CONFLICT DO NOTHING",
           {PgParam::text(stream)}, "registering the stream");
  return highest(stream);
}

void PostgresBackend::release(const std::string& stream) {
  if (!held_.erase(stream) || !db_.connected()) return;
  db_.exec("SELECT pg_advisory_unlock(hashtextextended($1, $2))",
           {PgParam::text(stream), PgParam::number(kLockSeed)}, "unlocking the stream");
}

void PostgresBackend::check_writer(const std::string& stream) {
  if (auto it = fenced_.find(stream); it != fenced_.end()) {
    throw JournalLockedError(stream, location(),
                             it->second +
                                 ", which took it while this "
                                 "journal was disconnected");
  }
  if (!held_.count(stream)) {
    throw JournalLockedError(stream, location(), "nobody: this journal does not hold it");
  }
}

void PostgresBackend::append(const std::string& stream, const std::vector<DatabaseRow>& rows) {
  ensure();
  check_writer(stream);
  std::vector<PgParam> params;
  params.reserve(1 + rows.size() * 6);
  params.push_back(PgParam::text(stream));
  for (const DatabaseRow& row : rows) {
    params.push_back(PgParam::number(static_cast<std::int64_t>(row.sequence)));
    params.push_back(PgParam::bytes(row.payload));
    params.push_back(optional_text(row.kind));
    params.push_back(optional_number(row.letter_id));
    params.push_back(optional_text(row.recipient));
    params.push_back(optional_number(row.timestamp_ms));
  }
  db_.exec("BEGIN", "starting an append");
  try {
    auto inserted = db_.exec(insert_sql(rows.size()), params, "appending");
    if (static_cast<std::size_t>(PQntuples(inserted.get())) < rows.size()) {
      // Some were there already (a retried batch whose commit had landed): same bytes or conflict.
      std::set<std::uint64_t> fresh;
      for (int i = 0; i < PQntuples(inserted.get()); ++i) {
        fresh.insert(std::stoull(PQgetvalue(inserted.get(), i, 0)));
      }
      std::string wanted = "{";
      for (const DatabaseRow& row : rows) {
        if (fresh.count(row.sequence)) continue;
        wanted += (wanted.size() > 1 ? "," : "") + std::to_string(row.sequence);
      }
      wanted += "}";
      auto existing = db_.exec(
          "SELECT seq, payload FROM mailroom_journal WHERE stream_id = $1 AND seq = "
          "ANY($2::bigint[])",
          {PgParam::text(stream), PgParam::text(wanted)}, "checking stored records", true);
      std::map<std::uint64_t, std::string> stored;
      for (int i = 0; i < PQntuples(existing.get()); ++i) {
        stored[static_cast<std::uint64_t>(pg_int8(existing.get(), i, 0))] =
            std::string(PQgetvalue(existing.get(), i, 1),
                        static_cast<std::size_t>(PQgetlength(existing.get(), i, 1)));
      }
      for (const DatabaseRow& row : rows) {
        if (fresh.count(row.sequence)) continue;
        if (stored[row.sequence] != row.payload) {
          throw JournalConflictError(stream, row.sequence, location());
        }
      }
    }
    db_.exec("COMMIT", "committing an append");
  } catch (...) {
    db_.rollback();
    throw;
  }
}

std::vector<JournalRecord> PostgresBackend::read(const std::string& stream) {
  return read_letters(stream, {});
}

std::vector<JournalRecord> PostgresBackend::read_letters(const std::string& stream,
                                                         const JournalLetterFilter& filter) {
  return once_more_if_dropped([&] { return read_pages(stream, filter); });
}

std::vector<JournalRecord> PostgresBackend::read_pages(const std::string& stream,
                                                       const JournalLetterFilter& filter) {
  const detail::LetterFilterSql narrow = detail::letter_filter_sql(filter, 3, '$');
  const std::string sql =
      "SELECT seq, payload FROM mailroom_journal WHERE stream_id = $1 AND seq > $2" + narrow.where +
      " ORDER BY seq LIMIT " + std::to_string(kReadPage);
  std::vector<JournalRecord> out;
  std::int64_t after = -1;
  while (true) {  // pages by key: constant memory per round trip, never a global serial
    std::vector<PgParam> params{PgParam::text(stream), PgParam::number(after)};
    for (const auto& p : narrow.params) {
      if (const auto* text = std::get_if<std::string>(&p)) {
        params.push_back(PgParam::text(*text));
      } else {
        params.push_back(PgParam::number(std::get<std::int64_t>(p)));
      }
    }
    auto r = db_.exec(sql, params, "reading the stream", true);
    const int n = PQntuples(r.get());
    for (int i = 0; i < n; ++i) {
      const std::int64_t seq = pg_int8(r.get(), i, 0);
      out.push_back({static_cast<std::uint64_t>(seq),
                     std::string(PQgetvalue(r.get(), i, 1),
                                 static_cast<std::size_t>(PQgetlength(r.get(), i, 1)))});
      after = seq;
    }
    if (n < kReadPage) return out;
  }
}

std::optional<std::vector<JournalLiveLetter>> PostgresBackend::read_live_letters(
    const std::string& stream, const JournalLetterFilter& filter,
    std::optional<std::uint64_t> before, std::size_t limit) {
  const detail::LiveLettersSql page = detail::live_letters_sql(stream, filter, before, limit, '$');
  std::vector<PgParam> params;
  for (const auto& p : page.params) {
    if (const auto* text = std::get_if<std::string>(&p)) {
      params.push_back(PgParam::text(*text));
    } else {
      params.push_back(PgParam::number(std::get<std::int64_t>(p)));
    }
  }
  auto r = once_more_if_dropped(
      [&] { return db_.exec(page.sql, params, "reading a page of live letters", true); });
  std::vector<JournalLiveLetter> out;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    out.push_back({{static_cast<std::uint64_t>(pg_int8(r.get(), i, 0)),
                    std::string(PQgetvalue(r.get(), i, 1),
                                static_cast<std::size_t>(PQgetlength(r.get(), i, 1)))},
                   pg_int8(r.get(), i, 2) != 0});
  }
  return out;
}

void PostgresBackend::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  ensure();
  check_writer(stream);
  const auto mark = PgParam::number(static_cast<std::int64_t>(up_to));
  db_.exec("BEGIN", "starting a compaction");
  try {
    db_.exec(
        "UPDATE mailroom_streams SET deleted_up_to = greatest(deleted_up_to, $2) "
        "WHERE stream_id = $1",
        {PgParam::text(stream), mark}, "recording the compaction");
    db_.exec("DELETE FROM mailroom_journal WHERE stream_id = $1 AND seq <= $2",
             {PgParam::text(stream), mark}, "compacting");
    db_.exec("COMMIT", "committing a compaction");
  } catch (...) {
    db_.rollback();
    throw;
  }
}

std::vector<std::string> PostgresBackend::streams() {
  auto r = once_more_if_dropped([&] {
    return db_.exec("SELECT stream_id FROM mailroom_streams ORDER BY stream_id", "listing streams");
  });
  std::vector<std::string> out;
  for (int i = 0; i < PQntuples(r.get()); ++i) out.emplace_back(PQgetvalue(r.get(), i, 0));
  return out;
}

std::optional<std::map<std::string, std::uint64_t>> PostgresBackend::count_letters() {
  auto r = once_more_if_dropped([&] {
    return db_.exec(live_letter_count_sql(false), {}, "counting the live dead letters",
                    true);  // binary
  });
  std::map<std::string, std::uint64_t> out;
  for (int i = 0; i < PQntuples(r.get()); ++i) {
    out[PQgetvalue(r.get(), i, 0)] = static_cast<std::uint64_t>(pg_int8(r.get(), i, 1));
  }
  return out;
}

}  // namespace mailroom::detail
