// Journals named by URL ("sqlite:/var/lib/app/dead-letters.db",
// "postgresql://host/db"), for HOCON `mailroom.journal.url`. The core knows
// no database: an optional library registers its scheme here when it is
// linked (mailroom_journal_sqlite, mailroom_journal_postgres), so a program
// that does not link one never pulls in its client library.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/journal.hpp"

namespace mailroom {

struct JournalOpenOptions {
  // Never creates, migrates or writes anything (mailroom-dlq, other streams'
  // views): a database without the schema is an error, not a new one.
  bool read_only = false;
};

using JournalOpener =
    std::function<std::shared_ptr<Journal>(const std::string& url, const JournalOpenOptions&)>;

// A URL whose scheme no linked library registered (or with no scheme at all).
class UnknownJournalSchemeError : public std::invalid_argument {
 public:
  UnknownJournalSchemeError(std::string url, std::string scheme,
                            const std::vector<std::string>& known);
  const std::string& url() const noexcept { return url_; }
  const std::string& scheme() const noexcept { return scheme_; }

 private:
  std::string url_, scheme_;
};

// The scheme of a URL: the letters before the first ':' ("sqlite", "postgresql"),
// lower-cased; "" when there is none.
std::string journal_url_scheme(const std::string& url);

// Registers (or replaces) the opener for a scheme. Thread-safe.
void register_journal_scheme(std::string scheme, JournalOpener opener);
std::vector<std::string> registered_journal_schemes();

// Opens the journal a URL names; throws UnknownJournalSchemeError for a scheme
// nobody registered, and whatever the opener throws (a database that cannot
// be opened names itself).
std::shared_ptr<Journal> open_journal_url(const std::string& url,
                                          const JournalOpenOptions& options = {});

}  // namespace mailroom
