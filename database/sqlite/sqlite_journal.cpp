#include "mailroom/sqlite_journal.hpp"

#include <algorithm>

#include "mailroom/errors.hpp"
#include "sqlite_backend.hpp"

namespace mailroom {

namespace {

[[noreturn]] void bad_url(const std::string& url, const std::string& why) {
  throw OptionsError("JournalUrl", "url", url, why);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX -> the byte; a "%" without two hex digits is refused, never kept.
std::string percent_decoded(const std::string& text, const std::string& url) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out.push_back(text[i]);
      continue;
    }
    const bool complete = i + 2 < text.size();
    const int high = complete ? hex_digit(text[i + 1]) : -1;
    const int low = complete ? hex_digit(text[i + 2]) : -1;
    if (high < 0 || low < 0)
      bad_url(url, "\"%\" must be followed by two hex digits (%20 for a space)");
    if (high == 0 && low == 0) bad_url(url, "%00 (a NUL byte) cannot be part of a file name");
    out.push_back(static_cast<char>(high * 16 + low));
    i += 2;
  }
  return out;
}

}  // namespace

SqliteUrl parse_sqlite_url(const std::string& url) {
  constexpr std::string_view kScheme = "sqlite:";
  if (journal_url_scheme(url) != "sqlite") {
    bad_url(url, "a SQLite journal URL starts with sqlite:");
  }
  std::string rest = url.substr(kScheme.size());
  SqliteUrl out;
  if (const auto query = rest.find('?'); query != std::string::npos) {
    std::string options = rest.substr(query + 1);
    rest.resize(query);
    std::size_t start = 0;
    while (start <= options.size()) {
      const std::size_t end = std::min(options.find('&', start), options.size());
      const std::string option = percent_decoded(options.substr(start, end - start), url);
      if (option == "mode=ro") {
        out.read_only = true;
      } else if (option == "mode=rw" || option == "mode=rwc") {
        out.read_only = false;
      } else if (!option.empty()) {
        bad_url(url, "unknown option \"" + option + "\" (known: mode=ro, mode=rw, mode=rwc)");
      }
      start = end + 1;
    }
  }
  std::string path = std::move(rest);
  if (path.rfind("//", 0) == 0) {
    path = path.substr(2);
    if (path.empty() || path.front() != '/') {
      throw OptionsError("JournalUrl", "url", url,
                         "sqlite:// needs an absolute path (sqlite:///var/lib/x.db) or use "
                         "sqlite:relative/x.db");
    }
  }
  path = percent_decoded(path, url);
  if (path.empty()) bad_url(url, "the file path is empty");
  out.path = std::move(path);
  return out;
}

std::string sqlite_path_from_url(const std::string& url) {
  return parse_sqlite_url(url).path;
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
        const mailroom::SqliteUrl parsed = mailroom::parse_sqlite_url(url);
        mailroom::JournalOpenOptions options = open;
        options.read_only = options.read_only || parsed.read_only;
        return mailroom::open_sqlite_journal(parsed.path, {}, options);
      });
  return 1;
}();
}
