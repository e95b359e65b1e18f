#include "pg_schema.hpp"

#include "mailroom/journal_database_errors.hpp"

namespace mailroom::detail {
namespace {

constexpr std::int64_t kMigrationLock = 0x6d61696c726f6f6d;  // "mailroom"

constexpr const char* kVersion1 = R"sql(
CREATE TABLE mailroom_journal (
  stream_id text NOT NULL,
  seq bigint NOT NULL,
  payload bytea NOT NULL,
  PRIMARY KEY (stream_id, seq)
);
CREATE TABLE mailroom_streams (
  stream_id text PRIMARY KEY,
  deleted_up_to bigint NOT NULL DEFAULT 0
);
)sql";

// The dead-letter columns, filled for rows already there (a record that is
// not JSON keeps nulls), and the view of live letters per system.
constexpr const char* kVersion2 = R"sql(
ALTER TABLE mailroom_journal ADD COLUMN kind text, ADD COLUMN letter_id bigint,
  ADD COLUMN recipient text, ADD COLUMN ts_ms bigint;
DO $$
DECLARE r record; j jsonb;
BEGIN
  FOR r IN SELECT stream_id, seq, payload FROM mailroom_journal LOOP
    BEGIN
      j := convert_from(r.payload, 'UTF8')::jsonb;
      IF jsonb_typeof(j) = 'object' AND jsonb_typeof(j->'k') = 'string' THEN
        UPDATE mailroom_journal SET kind = j->>'k', letter_id = (j->>'id')::bigint,
          recipient = j->>'r', ts_ms = (j->>'ts')::bigint
        WHERE stream_id = r.stream_id AND seq = r.seq;
      END IF;
    EXCEPTION WHEN others THEN NULL;
    END;
  END LOOP;
END $$;
INSERT INTO mailroom_streams (stream_id) SELECT DISTINCT stream_id FROM mailroom_journal
  ON CONFLICT DO NOTHING;
CREATE INDEX mailroom_journal_letter ON mailroom_journal (stream_id, letter_id, seq);
CREATE INDEX mailroom_journal_cleared ON mailroom_journal (stream_id, seq) WHERE kind = 'cleared';
CREATE INDEX mailroom_journal_recipient ON mailroom_journal (stream_id, recipient);
CREATE VIEW mailroom_dead_letters AS
SELECT
  CASE WHEN j.stream_id LIKE 'mailroom-dead-letters-%' THEN substr(j.stream_id, 23) END AS system,
  j.stream_id,
  j.letter_id AS id,
  j.seq,
  j.ts_ms AS timestamp_ms,
  j.recipient,
  r.record ->> 's' AS sender,
  (r.record ->> 'n')::bigint AS replay_count,
  r.record ->> 'why' AS cause,
  coalesce(r.record -> 'p' ->> 'c', r.record -> 'p' -> 'd' ->> 'c') AS class_name,
  r.record
FROM mailroom_journal j
CROSS JOIN LATERAL (SELECT convert_from(j.payload, 'UTF8')::jsonb AS record) r
WHERE j.kind = 'captured'
  AND NOT EXISTS (SELECT 1 FROM mailroom_journal l
                  WHERE l.stream_id = j.stream_id AND l.letter_id = j.letter_id
                    AND l.seq > j.seq AND l.kind IN ('captured', 'removed'))
  AND NOT EXISTS (SELECT 1 FROM mailroom_journal c
                  WHERE c.stream_id = j.stream_id AND c.kind = 'cleared' AND c.seq > j.seq);
)sql";

constexpr const char* kMigrations[] = {kVersion1, kVersion2};
static_assert(sizeof kMigrations / sizeof kMigrations[0] == kPgSchemaVersion);

int read_version(PgConnection& db) {
  auto r = db.exec("SELECT coalesce(max(version), 0) FROM mailroom_schema_version",
                   "reading the schema version");
  return std::stoi(PQgetvalue(r.get(), 0, 0));
}

}  // namespace

int pg_schema_version(PgConnection& db) {
  auto exists = db.exec("SELECT to_regclass('mailroom_schema_version') IS NOT NULL",
                        "looking for the schema");
  return std::string(PQgetvalue(exists.get(), 0, 0)) == "t" ? read_version(db) : 0;
}

void migrate_pg_schema(PgConnection& db, int target) {
  db.exec("BEGIN", "starting the migration");
  try {
    db.exec("SELECT pg_advisory_xact_lock($1)", {PgParam::number(kMigrationLock)},
            "locking the migration");
    db.exec("CREATE TABLE IF NOT EXISTS mailroom_schema_version (version integer NOT NULL)",
            "creating mailroom_schema_version");
    const int current = read_version(db);
    if (current > kPgSchemaVersion) {
      throw JournalSchemaError(db.location(), "schema version " + std::to_string(current) +
                                                  " is newer than this build knows (" +
                                                  std::to_string(kPgSchemaVersion) + ")");
    }
    for (int next = current + 1; next <= target; ++next) {
      db.exec(kMigrations[next - 1], "migrating the schema to version " + std::to_string(next));
    }
    if (target > current) {
      db.exec("DELETE FROM mailroom_schema_version", "recording the version");
      db.exec("INSERT INTO mailroom_schema_version (version) VALUES ($1)",
              {PgParam::number(target)}, "recording the version");
    }
    db.exec("COMMIT", "committing the migration");
  } catch (...) {
    db.rollback();
    throw;
  }
}

}  // namespace mailroom::detail
