// The journal format Node's NodeJournal (wasm/js/node_journal.js) writes: one
// file per stream named encodeURIComponent(stream) + ".jsonl", one line
// {"s": sequence, "p": payload} per record (a non-positive "s" marks a
// compaction point, not a record). Read-only: append/flush/delete_up_to throw,
// so this tool can never change a journal.
#pragma once

#include <string>

#include "mailroom/journal.hpp"

namespace mailroom::dlq {

class JsonLinesJournal final : public Journal {
 public:
  explicit JsonLinesJournal(std::string directory) : directory_(std::move(directory)) {}
  JournalReadResult read(const std::string& stream) override;
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override;
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;

  std::string path_for(const std::string& stream) const;

 private:
  std::string directory_;
};

}  // namespace mailroom::dlq
