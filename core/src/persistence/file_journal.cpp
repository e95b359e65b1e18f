#include "mailroom/file_journal.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "crc32.hpp"
#include "journal_frame.hpp"
#include "mailroom/directory_journal_storage.hpp"
#include "mailroom/journal_locked_error.hpp"

namespace mailroom {
namespace {

// Batches above this size go to the storage at once.
constexpr std::size_t kBatchBytes = 64 * 1024;

std::string damaged_name(const std::string& file) {
  return file + ".damaged";
}

// One stretch as it goes to the side file: a text line saying what and where,
// then the raw bytes, then a newline.
std::string side_entry(const std::string& file, const JournalDamage& d, std::string_view bytes) {
  using namespace std::chrono;
  const auto ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  return "mailroom-journal-damage file=" + file + " offset=" + std::to_string(d.offset) +
         " length=" + std::to_string(d.length) + " records=" + std::to_string(d.records) +
         " at-ms=" + std::to_string(ms) + " reason=" + d.reason + "\n" + std::string(bytes) + "\n";
}

detail::JournalScan scan_storage(JournalStorage& storage, const std::string& file) {
  return detail::scan_journal(storage.size(file), [&](std::uint64_t offset, std::size_t length) {
    return storage.read(file, offset, length);
  });
}

}  // namespace

FileJournal::FileJournal(std::string directory)
    : FileJournal(std::make_shared<DirectoryJournalStorage>(std::move(directory))) {}

FileJournal::FileJournal(std::shared_ptr<JournalStorage> storage) : storage_(std::move(storage)) {
  if (!storage_) throw std::invalid_argument("FileJournal: null storage");
}

// Batched records reach the storage (natively the OS: they survive a process
// crash); only flush() waits for the disk.
FileJournal::~FileJournal() {
  for (auto& [stream, state] : streams_) {
    try {
      write_pending(stream, state);
    } catch (...) {
      // nothing to report to from a destructor; flush() is the checked path
    }
    if (state.writer) storage_->unlock(file_name(stream));
  }
}

std::string FileJournal::file_name(const std::string& stream) {
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
  // Cannot come from a non-empty id. (push_back: assigning the literal trips
  // gcc 12's false -Wrestrict at -O3, GCC PR 105329.)
  if (name.empty()) name.push_back('%');
  // File names are limited (255 bytes on most systems): keep a prefix plus a checksum.
  if (name.size() > 150) {
    const std::uint32_t sum = crc32(stream);
    name.resize(120);
    name.push_back('~');
    for (int shift = 28; shift >= 0; shift -= 4) name.push_back(kHex[(sum >> shift) & 0xF]);
  }
  return name + ".journal";
}

std::string FileJournal::encode_file(std::uint64_t base_sequence,
                                     const std::vector<JournalRecord>& records) {
  std::string out = detail::encode_file_header(base_sequence);
  std::uint64_t last = base_sequence;
  for (const JournalRecord& record : records) {
    if (record.sequence <= last) {
      throw std::invalid_argument("FileJournal::encode_file: sequence " +
                                  std::to_string(record.sequence) + " does not follow " +
                                  std::to_string(last));
    }
    if (record.payload.size() > detail::kMaxRecordPayload) {
      throw std::invalid_argument("FileJournal::encode_file: payload over the 64 MiB record limit");
    }
    out += detail::encode_record(record.sequence, record.payload);
    last = record.sequence;
  }
  return out;
}

std::string FileJournal::path_for(const std::string& stream) const {
  return storage_->location(file_name(stream));
}

void FileJournal::scan(const std::string& stream, Stream& state, JournalReadResult* out) {
  write_pending(stream, state);  // batched appends must be part of what is read
  const std::string file = file_name(stream);
  detail::JournalScan scan = scan_storage(*storage_, file);
  state.loaded = true;
  state.damaged = scan.read.damaged || (scan.size > 0 && !scan.has_header);
  state.headed = scan.size > 0;
  state.last_sequence = scan.last_sequence;
  if (out != nullptr) {
    if (scan.read.damaged) scan.read.kept_aside = storage_->location(damaged_name(file));
    *out = std::move(scan.read);
  }
}

FileJournal::Stream& FileJournal::load(const std::string& stream) {
  Stream& state = streams_[stream];
  if (!state.loaded) scan(stream, state, nullptr);
  return state;
}

void FileJournal::write_pending(const std::string& stream, Stream& state) {
  if (state.pending.empty()) return;
  try {
    storage_->append(file_name(stream), state.pending);
  } catch (...) {
    // A partial batch may be on disk: forget what we know and rescan next time.
    state.pending.clear();
    state.loaded = false;
    throw;
  }
  state.pending.clear();
}

void FileJournal::become_writer(const std::string& stream, Stream& state) {
  if (state.writer) return;
  try {
    storage_->lock(file_name(stream));
  } catch (const JournalLockedError& e) {
    throw JournalLockedError(stream, e.location(), e.holder());  // named by stream, not file
  }
  state.writer = true;
  state.loaded = false;  // the previous writer may have appended: read afresh
}

// Keeps every damaged stretch aside, then replaces the file by its intact
// records above drop_up_to (0: all of them) under a fresh header, plus the
// record being appended, if any (in the same atomic replace, so its number,
// above every number a damaged tail may have held, is on disk with the repair).
// Returns the appended record's sequence (0 without one).
std::uint64_t FileJournal::rewrite(const std::string& stream, Stream& state,
                                   std::uint64_t drop_up_to, const std::string* appended) {
  write_pending(stream, state);
  const std::string file = file_name(stream);
  detail::JournalScan scan = scan_storage(*storage_, file);
  for (const JournalDamage& d : scan.read.damages) {
    // Stretches are read in bounded pieces, so a huge damaged file is no huge allocation.
    std::string entry = side_entry(file, d, {});
    entry.pop_back();  // the newline goes after the bytes
    storage_->append(damaged_name(file), entry);
    for (std::uint64_t done = 0; done < d.length;) {
      const auto piece =
          static_cast<std::size_t>(std::min<std::uint64_t>(detail::kScanChunk, d.length - done));
      const std::string bytes = storage_->read(file, d.offset + done, piece);
      if (bytes.empty()) break;
      storage_->append(damaged_name(file), bytes);
      done += bytes.size();
    }
    storage_->append(damaged_name(file), "\n");
  }
  if (!scan.read.damages.empty()) storage_->sync(damaged_name(file));
  // Numbers a damaged tail may have used are never handed out again.
  const std::uint64_t high = std::max(scan.last_sequence, scan.tail_high_water);
  // The base keeps the sequence high-water mark when every record goes.
  std::uint64_t base = scan.base_sequence;
  if (!scan.has_header)
    base = scan.read.records.empty() ? 0 : scan.read.records.front().sequence - 1;
  if (drop_up_to > base) base = std::min(drop_up_to, scan.last_sequence);
  bool kept = false;
  std::string rewritten;
  for (const JournalRecord& record : scan.read.records) {
    if (record.sequence <= drop_up_to) continue;
    rewritten += detail::encode_record(record.sequence, record.payload);
    kept = true;
  }
  if (!kept && appended == nullptr) base = std::max(base, high);
  std::uint64_t sequence = 0;
  if (appended != nullptr) {
    sequence = high + 1;
    rewritten += detail::encode_record(sequence, *appended);
  }
  storage_->replace(file, detail::encode_file_header(base) + rewritten);
  state.loaded = true;
  state.damaged = false;
  state.headed = true;
  state.last_sequence = appended != nullptr ? sequence : high;
  return sequence;
}

JournalReadResult FileJournal::read(const std::string& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  JournalReadResult result;
  scan(stream, streams_[stream], &result);
  return result;
}

std::uint64_t FileJournal::append(const std::string& stream, std::string payload) {
  if (payload.size() > detail::kMaxRecordPayload) {
    throw std::invalid_argument("FileJournal: payload of " + std::to_string(payload.size()) +
                                " bytes exceeds the 64 MiB record limit");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  Stream& state = streams_[stream];
  become_writer(stream, state);
  if (!state.loaded) scan(stream, state, nullptr);
  if (state.damaged) return rewrite(stream, state, 0, &payload);
  if (!state.headed) {  // a new file (a damaged one was rewritten with its header)
    state.pending = detail::encode_file_header(state.last_sequence);
    state.headed = true;
  }
  const std::uint64_t sequence = state.last_sequence + 1;
  state.pending += detail::encode_record(sequence, payload);
  state.last_sequence = sequence;
  if (state.pending.size() >= kBatchBytes) write_pending(stream, state);
  return sequence;
}

// The batches reach the storage under the lock; the sync (the slow part)
// runs after it, so captures on other threads are not held up by the disk.
void FileJournal::flush() {
  std::vector<std::string> to_sync;
  std::string failed;
  auto note_failure = [&](const std::string& stream, const std::exception& e) {
    failed += (failed.empty() ? "" : ", ") + path_for(stream) + " (" + e.what() + ")";
  };
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (auto& [stream, state] : streams_) {
      try {
        const bool wrote = !state.pending.empty();
        write_pending(stream, state);
        if (wrote || state.writer) to_sync.push_back(stream);
      } catch (const std::exception& e) {
        note_failure(stream, e);
        state.loaded = false;  // rescan: the tail may be partial
      }
    }
  }
  for (const std::string& stream : to_sync) {
    try {
      storage_->sync(file_name(stream));
    } catch (const std::exception& e) {
      note_failure(stream, e);
    }
  }
  if (!failed.empty()) throw std::runtime_error("FileJournal: cannot flush " + failed);
}

void FileJournal::flush_then(std::function<void(std::string error)> done) {
  flush();
  storage_->when_synced(std::move(done));
}

void FileJournal::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  std::lock_guard<std::mutex> lock(mutex_);
  Stream& state = streams_[stream];
  become_writer(stream, state);
  Stream& loaded = load(stream);
  if (!loaded.headed) return;  // no file: nothing to drop
  rewrite(stream, loaded, up_to, nullptr);
}

void FileJournal::acquire(const std::string& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  become_writer(stream, streams_[stream]);
}

void FileJournal::release(const std::string& stream) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end()) return;
  Stream& state = it->second;
  write_pending(stream, state);
  if (state.writer) {
    storage_->sync(file_name(stream));
    storage_->unlock(file_name(stream));
  }
  streams_.erase(it);
}

}  // namespace mailroom
