// libFuzzer target: a journal file holding arbitrary bytes must read without
// crashing, report damage consistently, and accept one append afterwards
// that reads back as the last record.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "mailroom/file_journal.hpp"

namespace {

const std::string& directory() {
  static const std::string dir = [] {
    // A RAM-backed folder when there is one: the target is file-I/O bound.
    std::error_code ec;
    const std::filesystem::path base = std::filesystem::is_directory("/dev/shm", ec)
                                           ? std::filesystem::path("/dev/shm")
                                           : std::filesystem::temp_directory_path();
    auto path = base / ("mailroom-journal-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path);
    return path.string();
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  mailroom::FileJournal journal(directory());
  const std::string path = journal.path_for("fuzz");
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  const mailroom::JournalReadResult first = journal.read("fuzz");
  if (first.damaged == first.damage.empty()) __builtin_trap();
  if (first.damaged && first.damaged_at_offset > size) __builtin_trap();
  const std::uint64_t last = first.records.empty() ? 0 : first.records.back().sequence;
  const std::uint64_t seq = journal.append("fuzz", "appended");
  // Continues after the last valid record (or after a compacted base when none survive).
  if (!first.records.empty() && seq != last + 1) __builtin_trap();
  const mailroom::JournalReadResult second = journal.read("fuzz");
  if (second.damaged) __builtin_trap();
  if (second.records.size() != first.records.size() + 1) __builtin_trap();
  if (second.records.back().sequence != seq || second.records.back().payload != "appended") {
    __builtin_trap();
  }
  return 0;
}
