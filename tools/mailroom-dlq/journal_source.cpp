#include "journal_source.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "json_lines_journal.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/file_journal.hpp"

namespace mailroom::dlq {
namespace fs = std::filesystem;
namespace {

constexpr std::string_view kQueuePrefix = "mailroom-dead-letters-";

// "%XX" back to bytes; nullopt for a malformed escape. The caller checks the
// result by encoding it again, so only names the journal itself made count.
std::optional<std::string> unescape(std::string_view name) {
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] != '%') {
      out.push_back(name[i]);
      continue;
    }
    if (i + 2 >= name.size() || !std::isxdigit(static_cast<unsigned char>(name[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(name[i + 2]))) {
      return std::nullopt;
    }
    out.push_back(static_cast<char>(std::stoi(std::string(name.substr(i + 1, 2)), nullptr, 16)));
    i += 2;
  }
  return out;
}

bool is_queue(const std::string& id) {
  return id.rfind(kQueuePrefix, 0) == 0;
}

std::string names(const std::vector<StreamFile>& streams) {
  std::string out;
  for (const auto& s : streams) out += "\n  " + s.persistence_id + "  (" + s.path + ")";
  return out;
}

// FileJournal's constructor creates its folder: only call it for one that exists.
FileJournal open_native(const std::string& directory) {
  return FileJournal(directory);
}

}  // namespace

std::vector<StreamFile> find_streams(const std::string& directory) {
  std::error_code ec;
  if (!fs::exists(directory, ec)) throw SourceError("no journal folder at " + directory);
  if (!fs::is_directory(directory, ec)) throw SourceError(directory + " is not a folder");
  FileJournal native = open_native(directory);
  JsonLinesJournal node(directory);
  std::vector<StreamFile> out;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    const std::string file = entry.path().filename().string();
    const std::string ext = entry.path().extension().string();
    if (ext != ".journal" && ext != ".jsonl") continue;
    auto id = unescape(entry.path().stem().string());
    if (!id || id->empty()) continue;
    const std::string path = entry.path().string();
    const std::string expected = ext == ".journal" ? native.path_for(*id) : node.path_for(*id);
    if (fs::path(expected).filename() != file) continue;  // not a name the journal writes
    out.push_back({*id, path, ext == ".journal" ? "native" : "node"});
  }
  if (ec) throw SourceError("cannot list " + directory + ": " + ec.message());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.persistence_id != b.persistence_id ? a.persistence_id < b.persistence_id
                                                : a.format < b.format;
  });
  return out;
}

ReadJournal read_queue(const std::string& directory,
                       const std::optional<std::string>& persistence_id) {
  const std::vector<StreamFile> streams = find_streams(directory);
  std::vector<StreamFile> candidates;
  for (const auto& s : streams) {
    if (persistence_id ? s.persistence_id == *persistence_id : is_queue(s.persistence_id)) {
      candidates.push_back(s);
    }
  }
  if (candidates.empty() && persistence_id) {
    // Long ids get a shortened file name (prefix + checksum) that a folder scan
    // cannot decode: ask the journals where that id lives.
    const std::string native = open_native(directory).path_for(*persistence_id);
    const std::string node = JsonLinesJournal(directory).path_for(*persistence_id);
    std::error_code ec;
    if (fs::exists(native, ec)) candidates.push_back({*persistence_id, native, "native"});
    if (fs::exists(node, ec)) candidates.push_back({*persistence_id, node, "node"});
  }
  if (candidates.empty()) {
    std::string message =
        persistence_id ? "no journal for persistence id '" + *persistence_id + "' in " + directory
                       : "no dead-letter queue journal (mailroom-dead-letters-*) in " + directory;
    if (!streams.empty()) message += "; journals there:" + names(streams);
    throw SourceError(message);
  }
  if (candidates.size() > 1) {
    throw SourceError(
        "several dead-letter queue journals in " + directory +
        " (choose one with --system NAME or --persistence-id ID):" + names(candidates));
  }
  ReadJournal out{candidates.front(), {}};
  try {
    if (out.stream.format == "native") {
      FileJournal journal = open_native(directory);
      out.contents = read_dead_letter_journal(journal, out.stream.persistence_id);
    } else {
      JsonLinesJournal journal(directory);
      out.contents = read_dead_letter_journal(journal, out.stream.persistence_id);
    }
  } catch (const std::exception& e) {
    throw SourceError("cannot read " + out.stream.path + ": " + e.what());
  }
  return out;
}

}  // namespace mailroom::dlq
