#include "writer_lock_file.hpp"

#if !defined(__EMSCRIPTEN__)
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace mailroom::writer_lock {
namespace {

constexpr const char* kTakeover = ".takeover";
constexpr int kMarkerDepth = 3;  // markers of markers left by takers that died mid-takeover
constexpr auto kTakeoverWait = std::chrono::milliseconds(2000);

std::runtime_error io_error(const std::string& what, const std::string& path, int error) {
  return std::runtime_error("journal storage: " + what + " " + path + ": " + std::strerror(error));
}

// Field 22 of /proc/<pid>/stat (clock ticks after boot), 0 when unknown.
unsigned long long start_time_of(long pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');  // the command name may hold spaces and ')'
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string field;
  for (int index = 3; index <= 22; ++index) {
    if (!(fields >> field)) return 0;
  }
  return std::strtoull(field.c_str(), nullptr, 10);
}

struct Owner {
  long pid = 0;                  // 0: empty or unreadable content
  unsigned long long start = 0;  // 0: not written (an older writer) or unknown
};

// The owner written in `path`; std::nullopt when the file is gone.
std::optional<Owner> owner_of(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw io_error("cannot read lock file", path, errno);
  }
  char text[64] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  ::close(fd);
  Owner owner;
  if (n <= 0) return owner;
  char* end = nullptr;
  const long pid = std::strtol(text, &end, 10);
  if (end == text || pid <= 0) return owner;
  owner.pid = pid;
  owner.start = std::strtoull(end, nullptr, 10);
  return owner;
}

bool alive(long pid) {
  return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM;
}

// Left by a process that is gone: no readable pid, a dead pid, a pid now
// used by a process started at another time, or our own pid (an earlier
// process with it; this process's own locks are refused before, by registry).
bool is_stale(const Owner& owner) {
  if (owner.pid <= 0 || owner.pid == static_cast<long>(::getpid()) || !alive(owner.pid))
    return true;
  if (owner.start == 0) return false;
  const unsigned long long now = start_time_of(owner.pid);
  return now != 0 && now != owner.start;
}

bool no_links(int error) {
  return error == EPERM || error == ENOTSUP || error == EOPNOTSUPP || error == ENOSYS;
}

void write_whole(int fd, const std::string& text, const std::string& path) {
  const ssize_t n = ::write(fd, text.data(), text.size());
  const int error = errno;
  if (n != static_cast<ssize_t>(text.size())) {
    ::close(fd);
    throw io_error("cannot write lock file", path, n < 0 ? error : EIO);
  }
}

// Creates `path` holding our stamp, whole: false when it exists already.
// Created empty and written after, a racer could read it empty and take it
// for stale in between.
bool create_holding(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  const std::string stamp = own_stamp();
  const std::string aside =
      path + "." + std::to_string(::getpid()) + "-" + std::to_string(counter.fetch_add(1)) + "-" +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".new";
  int fd = ::open(aside.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot create lock file", aside, errno);
  write_whole(fd, stamp, aside);
  ::close(fd);
  const int linked = ::link(aside.c_str(), path.c_str());
  const int error = errno;
  ::unlink(aside.c_str());
  if (linked == 0) return true;
  if (error == EEXIST) return false;
  if (!no_links(error)) throw io_error("cannot create lock file", path, error);
  // A file system without hard links: created exclusively, then written.
  fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return false;
    throw io_error("cannot create lock file", path, errno);
  }
  write_whole(fd, stamp, path);
  ::close(fd);
  return true;
}

struct Outcome {
  enum Kind { removed, gone, busy, live } kind;
  long pid = 0;  // the live holder
};

// Removes a stale `path` as the only process doing so: under a marker only
// one process can create, the owner is read again; while the marker is held
// nobody else removes the file and a dead owner cannot, so a file still stale
// then is still the one removed. A marker whose taker died is stale in turn.
Outcome remove_if_stale(const std::string& path, int depth) {
  const std::string marker = path + kTakeover;
  if (!create_holding(marker)) {
    const auto taker = owner_of(marker);
    if (taker && is_stale(*taker) && depth + 1 < kMarkerDepth) remove_if_stale(marker, depth + 1);
    return {Outcome::busy};
  }
  Outcome outcome{Outcome::removed};
  try {
    const auto owner = owner_of(path);
    if (!owner) {
      outcome = {Outcome::gone};
    } else if (!is_stale(*owner)) {
      outcome = {Outcome::live, owner->pid};
    } else if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
      throw io_error("cannot remove stale lock file", path, errno);
    }
  } catch (...) {
    ::unlink(marker.c_str());
    throw;
  }
  ::unlink(marker.c_str());
  return outcome;
}

}  // namespace

std::string own_stamp() {
  const long pid = static_cast<long>(::getpid());
  const unsigned long long start = start_time_of(pid);
  return std::to_string(pid) + (start != 0 ? " " + std::to_string(start) : std::string()) + "\n";
}

std::optional<std::string> take(const std::string& path) {
  const auto deadline = std::chrono::steady_clock::now() + kTakeoverWait;
  int removed = 0;
  for (;;) {
    if (create_holding(path)) return std::nullopt;
    // Gone meanwhile (released): try again.
    if (const auto owner = owner_of(path)) {
      if (!is_stale(*owner)) return "process " + std::to_string(owner->pid);
      const Outcome outcome = remove_if_stale(path, 0);
      if (outcome.kind == Outcome::live) return "process " + std::to_string(outcome.pid);
      if (outcome.kind == Outcome::removed && ++removed >= 3) {
        return std::string("another process (the lock file keeps coming back)");
      }
      if (outcome.kind == Outcome::busy) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (std::chrono::steady_clock::now() > deadline) {
      return "another process (it is taking over the stale lock; " + path + kTakeover + " stays)";
    }
  }
}

void release(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  char text[64] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  ::close(fd);
  if (n > 0 && std::string(text, static_cast<std::size_t>(n)) == own_stamp())
    ::unlink(path.c_str());
}

}  // namespace mailroom::writer_lock
#endif
