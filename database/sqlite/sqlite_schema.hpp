// The SQLite journal's schema, versioned in table mailroom_schema_version and
// migrated forward on first use (docs/databases.md lists the versions):
//   1  mailroom_journal (stream_id, seq, payload) keyed by (stream_id, seq);
//      mailroom_streams (one row per stream: compaction mark, writer's lease)
//   2  the dead-letter columns (kind, letter_id, recipient, ts_ms), filled for
//      the rows already there; indexes; the view mailroom_dead_letters
#pragma once

#include <sqlite3.h>

#include <string>

namespace mailroom::detail {

constexpr int kSqliteSchemaVersion = 3;

// 0 when the database has no Mailroom schema yet.
int sqlite_schema_version(sqlite3* db, const std::string& location);

// Applies every migration above the current version up to `target`, each in
// its own write transaction (a process opening the file at the same time
// waits and then finds the work done). Throws JournalSchemaError when the
// database is newer than this build.
void migrate_sqlite_schema(sqlite3* db, const std::string& location,
                           int target = kSqliteSchemaVersion);

}  // namespace mailroom::detail
