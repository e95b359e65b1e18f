// Finds the dead-letter queue journal to read in a journal folder (native
// FileJournal ".journal" files or Node ".jsonl" files) and reads it, without
// creating, repairing or compacting anything.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/dead_letter_journal_reader.hpp"

namespace mailroom::dlq {

// A problem that stops the command (exit code 1), with a message naming it.
class SourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StreamFile {
  std::string persistence_id;
  std::string path;
  std::string format;  // "native" or "node"
};

// Every journal stream in `directory` whose file name decodes to a stream id.
// Throws SourceError when the folder is missing or not a folder.
std::vector<StreamFile> find_streams(const std::string& directory);

struct ReadJournal {
  StreamFile stream;
  DeadLetterJournalContents contents;
  // A letter replayed this often is quarantined (the queue's max-replays).
  std::uint32_t max_replays = 0;
};

// Chooses the stream: `persistence_id` if given, else the folder's only
// dead-letter queue ("mailroom-dead-letters-..."). Throws SourceError naming
// the choices when there is none or more than one, or the id is not there.
ReadJournal read_queue(const std::string& directory,
                       const std::optional<std::string>& persistence_id);

}  // namespace mailroom::dlq
