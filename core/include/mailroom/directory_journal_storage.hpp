// DirectoryJournalStorage: journal files in one folder of a file system
// (native, or Emscripten's in-memory one). Appends go straight to the file
// (the journal batches them), replace writes aside, syncs, renames over and
// syncs the folder (sync() also syncs it after a file was created), and the
// writer's lock is "<name>.lock" holding the owner's "<pid> <start-time>",
// created whole and taken over under a ".takeover" marker when its owner is
// gone (the protocol the Node storage follows too, writer_lock_file.hpp),
// plus a registry of this process's locks, so a second writer in the same
// process is refused too. Thread-safe.
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "mailroom/journal_storage.hpp"

namespace mailroom {

class DirectoryJournalStorage final : public JournalStorage {
 public:
  // Creates the folder if missing; throws std::runtime_error naming the path
  // when it cannot (a file in the way included).
  explicit DirectoryJournalStorage(std::string directory);
  ~DirectoryJournalStorage() override;  // closes files, releases locks
  DirectoryJournalStorage(const DirectoryJournalStorage&) = delete;
  DirectoryJournalStorage& operator=(const DirectoryJournalStorage&) = delete;

  std::string location(const std::string& name) const override;
  std::uint64_t size(const std::string& name) override;
  std::string read(const std::string& name, std::uint64_t offset, std::size_t length) override;
  void append(const std::string& name, std::string_view bytes) override;
  void replace(const std::string& name, std::string_view bytes) override;
  void sync(const std::string& name) override;
  void lock(const std::string& name) override;
  void unlock(const std::string& name) override;

  const std::string& directory() const noexcept { return directory_; }

 private:
  int append_fd(const std::string& name);  // opened on first append, kept open
  void close_append_fd(const std::string& name);
  int take_lock_file(const std::string& name, const std::string& path);  // the held fd, or -1
  void release_lock_file(const std::string& path, int fd);

  std::string directory_;
  std::mutex mutex_;
  std::map<std::string, int> append_fds_;
  std::map<std::string, int> lock_fds_;
  bool unsynced_entries_ = false;  // a file was opened (maybe created) since the folder's last sync
};

}  // namespace mailroom
