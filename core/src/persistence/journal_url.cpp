#include "mailroom/journal_url.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

namespace mailroom {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, JournalOpener> openers;
};

// A function-local static: libraries register from their own static
// initialisers, whose order against this file's is unspecified.
Registry& registry() {
  static Registry instance;
  return instance;
}

std::string joined(const std::vector<std::string>& names) {
  if (names.empty()) return "none: link mailroom_journal_sqlite or mailroom_journal_postgres";
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

UnknownJournalSchemeError::UnknownJournalSchemeError(std::string url, std::string scheme,
                                                     const std::vector<std::string>& known)
    : std::invalid_argument((scheme.empty()
                                 ? "journal URL '" + url + "' has no scheme"
                                 : "journal URL '" + url + "': no journal library for scheme '" +
                                       scheme + "' is linked into this program") +
                            " (registered schemes: " + joined(known) + ")"),
      url_(std::move(url)),
      scheme_(std::move(scheme)) {}

std::string journal_url_scheme(const std::string& url) {
  const auto colon = url.find(':');
  if (colon == std::string::npos || colon == 0) return "";
  std::string scheme = url.substr(0, colon);
  const bool valid =
      std::isalpha(static_cast<unsigned char>(scheme[0])) &&
      std::all_of(scheme.begin(), scheme.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
      });
  if (!valid) return "";
  std::transform(scheme.begin(), scheme.end(), scheme.begin(), [](char c) {
    return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  });
  return scheme;
}

void register_journal_scheme(std::string scheme, JournalOpener opener) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.openers.insert_or_assign(std::move(scheme), std::move(opener));
}

std::vector<std::string> registered_journal_schemes() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  std::vector<std::string> out;
  for (const auto& [name, opener] : r.openers) out.push_back(name);
  return out;
}

std::shared_ptr<Journal> open_journal_url(const std::string& url,
                                          const JournalOpenOptions& options) {
  const std::string scheme = journal_url_scheme(url);
  JournalOpener opener;
  {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    if (auto it = r.openers.find(scheme); it != r.openers.end()) opener = it->second;
  }
  if (!opener) throw UnknownJournalSchemeError(url, scheme, registered_journal_schemes());
  return opener(url, options);
}

}  // namespace mailroom
