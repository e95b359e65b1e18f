// The four commands, each writing to `out` from journal contents already read.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "journal_source.hpp"

namespace mailroom::dlq {

struct ListFilter {
  std::optional<std::string> recipient;  // a path or its subtree; full paths accepted
  std::optional<std::int64_t> since_ms;
  std::optional<std::size_t> limit;  // newest first, at most this many
};

void list_letters(const ReadJournal& journal, const ListFilter& filter, bool json,
                  std::ostream& out);
// false when no letter has that id.
bool show_letter(const ReadJournal& journal, std::uint64_t id, std::ostream& out);
// "jsonl": one letter per line, oldest first. "panel": the DevTools panel's
// export file (format mailroom-devtools-export, version 1), importable there.
void export_letters(const ReadJournal& journal, const std::string& format, std::int64_t now_ms,
                    std::ostream& out);
void print_stats(const ReadJournal& journal, bool json, std::ostream& out);

}  // namespace mailroom::dlq
