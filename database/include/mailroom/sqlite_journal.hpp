// The SQLite journal (library mailroom_journal_sqlite, Debian libsqlite3-dev):
// one database file that every process of a host may share, in WAL mode, the
// schema created on first use (docs/databases.md). Each process writes only
// its own streams: a writer's lease row (pid, process start time, host,
// token) taken inside BEGIN IMMEDIATE; a second writer while the holder lives
// gets JournalLockedError, a dead holder's lease is taken over, and every
// write checks the lease is still its own.
// Linking the library registers the URL scheme "sqlite" (HOCON
// mailroom.journal.url = "sqlite:/path/file.db", or "sqlite:///path/file.db").
#pragma once

#include <memory>
#include <string>

#include "mailroom/database_journal.hpp"
#include "mailroom/journal_url.hpp"

namespace mailroom {

// Opens (creates and migrates, unless read-only) the database at `path`.
// Throws JournalSchemaError for a newer or foreign schema (and, read-only, for
// a file without one), std::runtime_error naming the file when it cannot be opened.
std::shared_ptr<DatabaseJournal> open_sqlite_journal(const std::string& path,
                                                     DatabaseJournalOptions options = {},
                                                     JournalOpenOptions open = {});

// What a sqlite: URL names: the file (percent-escapes decoded, as in any
// URL: "sqlite:a%20b.db" is "a b.db") and its options after "?"
// (mode=ro: read-only; mode=rw / mode=rwc: the default).
struct SqliteUrl {
  std::string path;
  bool read_only = false;
};
// "sqlite:/a/b.db" and "sqlite:///a/b.db" -> "/a/b.db", "sqlite:b.db" -> "b.db";
// OptionsError{"JournalUrl", "url", url} for anything else (a bad escape, an
// unknown option).
SqliteUrl parse_sqlite_url(const std::string& url);
std::string sqlite_path_from_url(const std::string& url);  // parse_sqlite_url(url).path

}  // namespace mailroom
