#include "database_source.hpp"

#include <filesystem>
#include <memory>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/journal_url.hpp"

namespace mailroom::dlq {
namespace {

std::shared_ptr<Journal> open_read_only(const std::string& url) {
  try {
    return open_journal_url(url, JournalOpenOptions{.read_only = true});
  } catch (const std::exception& e) {
    throw SourceError(e.what());
  }
}

std::vector<std::string> queue_streams(Journal& journal) {
  const std::string prefix = DeadLetterQueueSettings::default_persistence_id("");
  std::vector<std::string> out;
  for (auto& s : journal.streams()) {
    if (s.rfind(prefix, 0) == 0) out.push_back(s);
  }
  return out;
}

ReadJournal read_stream(Journal& journal, const std::string& url, const std::string& stream) {
  ReadJournal out{{stream, url + " (" + stream + ")", "database"}, {}};
  try {
    out.contents = read_dead_letter_journal(journal, stream);
  } catch (const std::exception& e) {
    throw SourceError("cannot read " + out.stream.path + ": " + e.what());
  }
  return out;
}

}  // namespace

bool is_database_url(const std::string& source) {
  std::error_code ec;
  return !journal_url_scheme(source).empty() && !std::filesystem::exists(source, ec);
}

ReadJournal read_database_queue(const std::string& url,
                                const std::optional<std::string>& persistence_id) {
  auto journal = open_read_only(url);
  const std::vector<std::string> streams = journal->streams();
  if (persistence_id) {
    for (const auto& s : streams) {
      if (s == *persistence_id) return read_stream(*journal, url, s);
    }
    throw SourceError("no journal stream '" + *persistence_id + "' in " + url);
  }
  const std::vector<std::string> queues = queue_streams(*journal);
  if (queues.size() == 1) return read_stream(*journal, url, queues.front());
  std::string names;
  for (const auto& s : queues) names += "\n  " + s;
  throw SourceError(queues.empty()
                        ? "no dead-letter queue stream (mailroom-dead-letters-*) in " + url
                        : "several dead-letter queue streams in " + url +
                              " (choose one with --system NAME or --persistence-id ID):" + names);
}

bool list_database_streams(const std::string& url, const ListFilter& filter, bool json,
                           std::uint32_t max_replays, std::ostream& out) {
  auto journal = open_read_only(url);
  const std::vector<std::string> queues = queue_streams(*journal);
  bool damaged = false;
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& stream : queues) {
    ReadJournal one = read_stream(*journal, url, stream);
    one.max_replays = max_replays;
    damaged = damaged || one.contents.damaged || !one.contents.unreadable.empty();
    if (json) {
      std::ostringstream text;
      list_letters(one, filter, true, text);
      for (auto& letter : nlohmann::json::parse(text.str())) {
        letter["stream"] = stream;
        all.push_back(std::move(letter));
      }
    } else {
      out << "== " << stream << "\n";
      list_letters(one, filter, false, out);
    }
  }
  if (json) {
    out << all.dump(2) << '\n';
  } else if (queues.empty()) {
    out << "no dead-letter queue streams in " << url << '\n';
  }
  return damaged;
}

}  // namespace mailroom::dlq
