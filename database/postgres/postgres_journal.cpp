#include "mailroom/postgres_journal.hpp"

#include "pg_backend.hpp"

namespace mailroom {

std::string redact_conninfo(const std::string& conninfo) {
  std::string out = conninfo;
  // URI form: scheme://user:password@host
  if (auto scheme = out.find("://"); scheme != std::string::npos) {
    const auto at = out.find('@', scheme + 3);
    const auto colon = out.find(':', scheme + 3);
    if (at != std::string::npos && colon != std::string::npos && colon < at) {
      out.replace(colon + 1, at - colon - 1, "***");
    }
  }
  // Keyword form or URI parameter: password=secret
  for (auto p = out.find("password="); p != std::string::npos; p = out.find("password=", p + 1)) {
    const auto start = p + 9;
    auto end = out.find_first_of(" &", start);
    if (end == std::string::npos) end = out.size();
    out.replace(start, end - start, "***");
  }
  return out;
}

std::shared_ptr<DatabaseJournal> open_postgres_journal(const std::string& conninfo,
                                                       DatabaseJournalOptions options,
                                                       JournalOpenOptions open) {
  return std::make_shared<DatabaseJournal>(
      std::make_unique<detail::PostgresBackend>(conninfo, open.read_only), options, open.read_only);
}

}  // namespace mailroom

// Linking the library registers "postgresql:" and "postgres:"; the CMake
// target asks the linker for this symbol (-u) so a static archive keeps it.
extern "C" {
int mailroom_journal_postgres_registered = [] {
  auto opener = [](const std::string& url, const mailroom::JournalOpenOptions& open) {
    return mailroom::open_postgres_journal(url, {}, open);
  };
  mailroom::register_journal_scheme("postgresql", opener);
  mailroom::register_journal_scheme("postgres", opener);
  return 1;
}();
}
