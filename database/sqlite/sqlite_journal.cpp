#include "mailroom/sqlite_journal.hpp"

#include "mailroom/errors.hpp"
#include "sqlite_backend.hpp"

namespace mailroom {

std::string sqlite_path_from_url(const std::string& url) {
  constexpr std::string_view kScheme = "sqlite:";
  if (journal_url_scheme(url) != "sqlite") {
    throw OptionsError("JournalUrl", "url", url, "a SQLite journal URL starts with sqlite:");
  }
  std::string path = url.substr(kScheme.size());
  if (path.rfind("//", 0) == 0) {
    path = path.substr(2);
    if (path.empty() || path.front() != '/') {
      throw OptionsError("JournalUrl", "url", url,
                         "sqlite:// needs an absolute path (sqlite:///var/lib/x.db) or use "
                         "sqlite:relative/x.db");
    }
  }
  if (path.empty()) throw OptionsError("JournalUrl", "url", url, "the file path is empty");
  return path;
}

std::shared_ptr<DatabaseJournal> open_sqlite_journal(const std::string& path,
                                                     DatabaseJournalOptions options,
                                                     JournalOpenOptions open) {
  return std::make_shared<DatabaseJournal>(
      std::make_unique<detail::SqliteBackend>(path, open.read_only), options, open.read_only);
}

}  // namespace mailroom

// Linking the library registers "sqlite:". The CMake target asks the linker
// for this symbol (-u), so the registration is kept from a static archive.
extern "C" {
int mailroom_journal_sqlite_registered = [] {
  mailroom::register_journal_scheme(
      "sqlite", [](const std::string& url, const mailroom::JournalOpenOptions& open) {
        return mailroom::open_sqlite_journal(mailroom::sqlite_path_from_url(url), {}, open);
      });
  return 1;
}();
}
