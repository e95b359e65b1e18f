// The PostgreSQL journal (library mailroom_journal_postgres, Debian libpq-dev,
// the C API): one database that processes on many hosts share, the schema
// created on first use (docs/databases.md). Each process writes only its own
// streams: a session-level advisory lock per stream (pg_try_advisory_lock on
// a 64-bit hash of the stream id) held by the journal's connection; a second
// writer gets JournalLockedError naming the holding session. The lock goes
// with the connection: after a reconnect it is taken again before any write,
// and if another writer got it meanwhile the stream is fenced
// (JournalLockedError), never written by two.
// Linking the library registers the URL schemes "postgresql" and "postgres"
// (HOCON mailroom.journal.url = "postgresql://user@host:5432/db"); anything
// libpq accepts as a connection string works in open_postgres_journal.
#pragma once

#include <memory>
#include <string>

#include "mailroom/database_journal.hpp"
#include "mailroom/journal_url.hpp"

namespace mailroom {

// Connects (throws JournalUnavailableError naming the server when it cannot),
// creates and migrates the schema unless read-only.
std::shared_ptr<DatabaseJournal> open_postgres_journal(const std::string& conninfo,
                                                       DatabaseJournalOptions options = {},
                                                       JournalOpenOptions open = {});

// A connection string with any password replaced by "***", for messages.
std::string redact_conninfo(const std::string& conninfo);

}  // namespace mailroom
