#include "mailroom/file_journal.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "crc32.hpp"
#include "journal_frame.hpp"

#if !defined(__EMSCRIPTEN__) && !defined(_WIN32)
#include <unistd.h>
#define MAILROOM_HAVE_FSYNC 1
#endif

namespace mailroom {
namespace {

namespace fs = std::filesystem;

std::runtime_error io_error(const std::string& what, const std::string& path) {
  return std::runtime_error("FileJournal: " + what + " " + path + ": " + std::strerror(errno));
}

std::optional<std::string> read_whole_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    if (errno == ENOENT) return std::nullopt;
    throw io_error("cannot open", path);
  }
  std::string bytes;
  char buffer[64 * 1024];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) throw io_error("cannot read", path);
  return bytes;
}

// Flushes stdio buffers and, where the platform has it, the kernel's.
bool sync_file(std::FILE* f) {
  if (std::fflush(f) != 0) return false;
#ifdef MAILROOM_HAVE_FSYNC
  if (::fsync(::fileno(f)) != 0) return false;
#endif
  return true;
}

void write_whole_file(const std::string& path, const std::string& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) throw io_error("cannot create", path);
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && sync_file(f);
  if (std::fclose(f) != 0 || !ok) throw io_error("cannot write", path);
}

}  // namespace

FileJournal::FileJournal(std::string directory) : directory_(std::move(directory)) {
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec || !fs::is_directory(directory_, ec)) {
    throw std::runtime_error("FileJournal: cannot create directory " + directory_ + ": " +
                             (ec ? ec.message() : std::string("not a directory")));
  }
}

// fclose hands buffered records to the OS (they survive a process crash);
// only flush() waits for the disk.
FileJournal::~FileJournal() {
  for (auto& entry : streams_) close_file(entry.second);
}

std::string FileJournal::path_for(const std::string& stream) const {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string name;
  for (unsigned char c : stream) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_';
    if (safe) {
      name.push_back(static_cast<char>(c));
    } else {  // '%XX' keeps the mapping reversible, so two ids never share a file
      name.push_back('%');
      name.push_back(kHex[c >> 4]);
      name.push_back(kHex[c & 0xF]);
    }
  }
  if (name.empty()) name = "%";  // cannot come from a non-empty id
  // File names are limited (255 bytes on most systems): keep a prefix plus a checksum.
  if (name.size() > 150) {
    const std::uint32_t sum = crc32(stream);
    name.resize(120);
    name.push_back('~');
    for (int shift = 28; shift >= 0; shift -= 4) name.push_back(kHex[(sum >> shift) & 0xF]);
  }
  return (fs::path(directory_) / (name + ".journal")).string();
}

void FileJournal::close_file(Stream& state) {
  if (state.file != nullptr) std::fclose(state.file);
  state.file = nullptr;
}

void FileJournal::rescan(Stream& state, const std::string& path, JournalReadResult* out) {
  if (state.file != nullptr) std::fflush(state.file);  // buffered appends must be visible
  const std::optional<std::string> bytes = read_whole_file(path);
  detail::JournalScan scan = detail::scan_journal(bytes ? *bytes : std::string());
  state.loaded = true;
  state.last_sequence = scan.last_sequence;
  state.valid_size = scan.valid_size;
  state.needs_repair = scan.read.damaged || !scan.has_header;
  if (out != nullptr) *out = std::move(scan.read);
}

FileJournal::Stream& FileJournal::load(const std::string& stream) {
  Stream& state = streams_[stream];
  if (!state.loaded) rescan(state, path_for(stream), nullptr);
  return state;
}

void FileJournal::repair(Stream& state, const std::string& path) {
  close_file(state);
  if (state.valid_size < detail::kFileHeaderSize) {
    // No usable header: start the file over, keeping the sequence we know.
    std::string header = detail::encode_file_header(state.last_sequence);
    write_whole_file(path, header);
    state.valid_size = header.size();
  } else {
    std::error_code ec;
    fs::resize_file(path, state.valid_size, ec);
    if (ec) throw std::runtime_error("FileJournal: cannot truncate " + path + ": " + ec.message());
  }
  state.needs_repair = false;
}

JournalReadResult FileJournal::read(const std::string& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  JournalReadResult result;
  rescan(streams_[stream], path_for(stream), &result);
  return result;
}

std::uint64_t FileJournal::append(const std::string& stream, std::string payload) {
  if (payload.size() > detail::kMaxRecordPayload) {
    throw std::invalid_argument("FileJournal: payload of " + std::to_string(payload.size()) +
                                " bytes exceeds the 64 MiB record limit");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string path = path_for(stream);
  Stream& state = load(stream);
  if (state.needs_repair) repair(state, path);
  if (state.file == nullptr) {
    state.file = std::fopen(path.c_str(), "ab");
    if (state.file == nullptr) throw io_error("cannot open", path);
  }
  const std::string record = detail::encode_record(state.last_sequence + 1, payload);
  if (std::fwrite(record.data(), 1, record.size(), state.file) != record.size()) {
    // A partial record may be on disk: forget what we know and rescan next time.
    close_file(state);
    state.loaded = false;
    throw io_error("cannot append to", path);
  }
  state.valid_size += record.size();
  return ++state.last_sequence;
}

void FileJournal::flush() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string failed;
  for (auto& [stream, state] : streams_) {
    if (state.file == nullptr || sync_file(state.file)) continue;
    failed += (failed.empty() ? "" : ", ") + path_for(stream);
    close_file(state);
    state.loaded = false;  // rescan: the tail may be partial
  }
  if (!failed.empty()) throw std::runtime_error("FileJournal: cannot flush " + failed);
}

void FileJournal::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string path = path_for(stream);
  Stream& state = streams_[stream];
  if (state.file != nullptr) std::fflush(state.file);
  const std::optional<std::string> bytes = read_whole_file(path);
  if (!bytes) return;
  detail::JournalScan scan = detail::scan_journal(*bytes);
  if (!scan.has_header || up_to <= scan.base_sequence) return;  // nothing of ours to drop
  // The base keeps the sequence high-water mark when every record goes.
  const std::uint64_t base = up_to < scan.last_sequence ? up_to : scan.last_sequence;
  std::string rewritten = detail::encode_file_header(base);
  for (const JournalRecord& record : scan.read.records) {
    if (record.sequence > up_to)
      rewritten += detail::encode_record(record.sequence, record.payload);
  }
  // Write aside and rename over: a crash leaves either the old or the new file.
  const std::string temp = path + ".tmp";
  write_whole_file(temp, rewritten);
  close_file(state);
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) throw std::runtime_error("FileJournal: cannot replace " + path + ": " + ec.message());
  state.loaded = true;
  state.needs_repair = false;
  state.valid_size = rewritten.size();
  state.last_sequence = scan.last_sequence;
}

}  // namespace mailroom
