#include "mailroom/directory_journal_storage.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <stdexcept>
#include <system_error>

#include "mailroom/journal_locked_error.hpp"
#include "writer_lock_file.hpp"

#if !defined(__EMSCRIPTEN__)
#define MAILROOM_NATIVE_FILES 1
#endif

namespace mailroom {
namespace {

namespace fs = std::filesystem;

std::runtime_error io_error(const std::string& what, const std::string& path, int error) {
  return std::runtime_error("journal storage: " + what + " " + path + ": " + std::strerror(error));
}

void write_all(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw io_error("cannot write", path, errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

#if defined(MAILROOM_NATIVE_FILES)
// A rename or a new file is durable only once its folder's entry is: without
// this, a power cut after replace() may bring back the old file.
void sync_directory(const std::string& directory) {
  const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw io_error("cannot open folder", directory, errno);
  const int result = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (result != 0) throw io_error("cannot sync folder", directory, error);
}
#endif

// Lock files held by this process (a lock file names the process, not which
// journal of it holds; Emscripten has no other processes).
std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::set<std::string>& registry() {
  static std::set<std::string> held;
  return held;
}

}  // namespace

DirectoryJournalStorage::DirectoryJournalStorage(std::string directory)
    : directory_(std::move(directory)) {
  std::error_code ec;
  if (fs::exists(directory_, ec) && !fs::is_directory(directory_, ec)) {
    throw std::runtime_error("journal folder " + directory_ + " is an existing file, not a folder");
  }
  fs::create_directories(directory_, ec);
  if (ec || !fs::is_directory(directory_, ec)) {
    throw std::runtime_error("cannot create journal folder " + directory_ + ": " +
                             (ec ? ec.message() : std::string("not a folder")));
  }
  // The registry is keyed by absolute path: two spellings of one folder are one folder.
  const fs::path absolute = fs::weakly_canonical(fs::absolute(directory_, ec), ec);
  if (!ec) directory_ = absolute.string();
}

DirectoryJournalStorage::~DirectoryJournalStorage() {
  std::lock_guard<std::mutex> guard(mutex_);
  for (auto& [name, fd] : append_fds_) ::close(fd);
  std::lock_guard<std::mutex> registry_guard(registry_mutex());
  for (auto& [name, fd] : lock_fds_) {
    release_lock_file(location(name) + ".lock", fd);
    registry().erase(location(name) + ".lock");
  }
}

std::string DirectoryJournalStorage::location(const std::string& name) const {
  return (fs::path(directory_) / name).string();
}

std::uint64_t DirectoryJournalStorage::size(const std::string& name) {
  struct stat st {};
  const std::string path = location(name);
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return 0;
    throw io_error("cannot stat", path, errno);
  }
  return static_cast<std::uint64_t>(st.st_size);
}

std::string DirectoryJournalStorage::read(const std::string& name, std::uint64_t offset,
                                          std::size_t length) {
  const std::string path = location(name);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return {};
    throw io_error("cannot open", path, errno);
  }
  std::string out(length, '\0');
  std::size_t got = 0;
  while (got < length) {
    const ssize_t n = ::pread(fd, out.data() + got, length - got, static_cast<off_t>(offset + got));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      throw io_error("cannot read", path, error);
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

int DirectoryJournalStorage::append_fd(const std::string& name) {
  auto it = append_fds_.find(name);
  if (it != append_fds_.end()) return it->second;
  const std::string path = location(name);
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot open", path, errno);
  append_fds_[name] = fd;
  unsynced_entries_ = true;  // the file may be new: sync() makes its folder entry durable
  return fd;
}

void DirectoryJournalStorage::close_append_fd(const std::string& name) {
  auto it = append_fds_.find(name);
  if (it == append_fds_.end()) return;
  ::close(it->second);
  append_fds_.erase(it);
}

void DirectoryJournalStorage::append(const std::string& name, std::string_view bytes) {
  std::lock_guard<std::mutex> guard(mutex_);
  write_all(append_fd(name), bytes, location(name));
}

void DirectoryJournalStorage::replace(const std::string& name, std::string_view bytes) {
  std::lock_guard<std::mutex> guard(mutex_);
  const std::string path = location(name);
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot create", temp, errno);
  try {
    write_all(fd, bytes, temp);
#if defined(MAILROOM_NATIVE_FILES)
    if (::fsync(fd) != 0) throw io_error("cannot sync", temp, errno);
#endif
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  ::close(fd);
  close_append_fd(name);  // it points at the file being replaced
  if (::rename(temp.c_str(), path.c_str()) != 0) throw io_error("cannot replace", path, errno);
#if defined(MAILROOM_NATIVE_FILES)
  sync_directory(directory_);
#endif
}

// fdatasync on a duplicate of the append descriptor, outside the storage's
// lock: appends (and a replace that closes the original) go on meanwhile.
void DirectoryJournalStorage::sync(const std::string& name) {
#if defined(MAILROOM_NATIVE_FILES)
  int fd = -1;
  bool entries = false;
  {
    std::lock_guard<std::mutex> guard(mutex_);
    auto it = append_fds_.find(name);
    if (it != append_fds_.end()) {
      fd = ::fcntl(it->second, F_DUPFD_CLOEXEC, 0);
      if (fd < 0) throw io_error("cannot sync", location(name), errno);
    }
    entries = unsynced_entries_;
    unsynced_entries_ = false;
  }
  if (fd >= 0) {
    const int result = ::fdatasync(fd);
    const int error = errno;
    ::close(fd);
    if (result != 0) throw io_error("cannot sync", location(name), error);
  }
  if (entries) {
    try {
      sync_directory(directory_);
    } catch (...) {
      std::lock_guard<std::mutex> guard(mutex_);
      unsynced_entries_ = true;
      throw;
    }
  }
#else
  (void)name;
#endif
}

void DirectoryJournalStorage::lock(const std::string& name) {
  std::lock_guard<std::mutex> guard(mutex_);
  if (lock_fds_.count(name) != 0) return;
  const std::string path = location(name) + ".lock";
  {
    std::lock_guard<std::mutex> registry_guard(registry_mutex());
    if (!registry().insert(path).second) {
      throw JournalLockedError(name, location(name), "another journal of this process");
    }
  }
  int fd = -1;
  try {
    fd = take_lock_file(name, path);
  } catch (...) {
    std::lock_guard<std::mutex> registry_guard(registry_mutex());
    registry().erase(path);
    throw;
  }
  lock_fds_[name] = fd;
}

#if defined(MAILROOM_NATIVE_FILES)
// The protocol every native and Node writer shares (writer_lock_file.hpp).
int DirectoryJournalStorage::take_lock_file(const std::string& name, const std::string& path) {
  if (auto holder = writer_lock::take(path))
    throw JournalLockedError(name, location(name), *holder);
  return -1;  // held by the file's existence, no descriptor
}

void DirectoryJournalStorage::release_lock_file(const std::string& path, int) {
  writer_lock::release(path);
}
#else
// Emscripten's file system has no other processes: the registry decides.
int DirectoryJournalStorage::take_lock_file(const std::string&, const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot open lock file", path, errno);
  return fd;
}

void DirectoryJournalStorage::release_lock_file(const std::string&, int fd) {
  ::close(fd);
}
#endif

void DirectoryJournalStorage::unlock(const std::string& name) {
  std::lock_guard<std::mutex> guard(mutex_);
  auto it = lock_fds_.find(name);
  if (it == lock_fds_.end()) return;
  release_lock_file(location(name) + ".lock", it->second);
  lock_fds_.erase(it);
  std::lock_guard<std::mutex> registry_guard(registry_mutex());
  registry().erase(location(name) + ".lock");
}

}  // namespace mailroom
