// The PostgreSQL journal's schema, versioned in mailroom_schema_version and
// migrated on first use under a transaction-level advisory lock (two
// processes starting at once: one migrates, the other finds it done). The
// versions are those of the SQLite journal (sqlite_schema.hpp), payloads as bytea.
#pragma once

#include "pg_connection.hpp"

namespace mailroom::detail {

constexpr int kPgSchemaVersion = 2;

int pg_schema_version(PgConnection& db);  // 0: no Mailroom schema
void migrate_pg_schema(PgConnection& db, int target = kPgSchemaVersion);

}  // namespace mailroom::detail
