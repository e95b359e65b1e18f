// A journal in a database (sqlite:/path/file.db, postgresql://...), opened
// read-only through the URL schemes the linked journal libraries register:
// one stream to read like a folder's journal, or every dead-letter stream
// of the database for `list` across streams.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "commands.hpp"
#include "journal_source.hpp"

namespace mailroom::dlq {

// The source names a database (a URL scheme), not a folder.
bool is_database_url(const std::string& source);

// As read_queue, for a database: `persistence_id` or its only dead-letter stream.
ReadJournal read_database_queue(const std::string& url,
                                const std::optional<std::string>& persistence_id);

// `list` over every dead-letter stream of the database: a section per stream
// (the filter and limit apply per stream), or with json one array whose
// letters carry their "stream". Returns true when any stream was damaged.
bool list_database_streams(const std::string& url, const ListFilter& filter, bool json,
                           std::uint32_t max_replays, std::ostream& out);

}  // namespace mailroom::dlq
