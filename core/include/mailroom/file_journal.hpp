// FileJournal: one append-only file per stream under a directory, records
// framed with length, sequence and CRC32 (see core/src/persistence/journal_frame.hpp).
// Works on a native file system and on Emscripten's MEMFS/IDBFS (plain stdio).
// A damaged tail is reported by read() and cut off by the next append, so
// appends continue after the last valid record. Thread-safe.
#pragma once

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "mailroom/journal.hpp"

namespace mailroom {

class FileJournal final : public Journal {
 public:
  // Creates the directory if missing; throws std::runtime_error if it cannot.
  explicit FileJournal(std::string directory);
  ~FileJournal() override;  // closes the files (no fsync: call flush() for that)
  FileJournal(const FileJournal&) = delete;
  FileJournal& operator=(const FileJournal&) = delete;

  JournalReadResult read(const std::string& stream) override;
  // Throws std::invalid_argument for an empty stream id or a payload over
  // 64 MiB, std::runtime_error when the file cannot be written.
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override;  // fflush + fsync (no fsync under Emscripten)
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;

  const std::string& directory() const noexcept { return directory_; }
  // The file holding a stream: ids are escaped into a safe, collision-free name.
  std::string path_for(const std::string& stream) const;

 private:
  struct Stream {
    std::FILE* file = nullptr;  // opened for append on first write
    bool loaded = false;
    bool needs_repair = false;  // damaged tail or no header: fix before writing
    std::uint64_t last_sequence = 0;
    std::uint64_t valid_size = 0;
  };

  Stream& load(const std::string& stream);
  void rescan(Stream& state, const std::string& path, JournalReadResult* out);
  void repair(Stream& state, const std::string& path);
  void close_file(Stream& state);

  std::string directory_;
  std::mutex mutex_;
  std::map<std::string, Stream> streams_;
};

}  // namespace mailroom
