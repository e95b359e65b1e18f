// JournalStorage: the bytes under a FileJournal, one named file per stream.
// The journal owns the format (frames, sequence numbers, recovery); a storage
// only moves bytes, so the same format lives on a native folder
// (DirectoryJournalStorage), on node:fs and on IndexedDB (the wasm layer).
// Calls for one name are serialised by the journal.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace mailroom {

class JournalStorage {
 public:
  virtual ~JournalStorage() = default;
  // Where a file lives, for messages ("dir/name").
  virtual std::string location(const std::string& name) const = 0;
  // Size in bytes; 0 when the file does not exist.
  virtual std::uint64_t size(const std::string& name) = 0;
  // Up to `length` bytes from `offset` (fewer only at the end of the file).
  virtual std::string read(const std::string& name, std::uint64_t offset, std::size_t length) = 0;
  // Adds bytes at the end, creating the file when missing.
  virtual void append(const std::string& name, std::string_view bytes) = 0;
  // Replaces the whole file atomically: afterwards it holds either the old or the new bytes.
  virtual void replace(const std::string& name, std::string_view bytes) = 0;
  // Makes what was appended durable (natively: written and fdatasync'ed), or
  // starts doing so where storage confirms later (IndexedDB commits).
  virtual void sync(const std::string& name) = 0;
  // Calls done("") once everything synced so far is durable, or done(why)
  // when storage failed. Storages whose sync() is complete on return call it
  // at once (the default); IndexedDB calls it after the commit.
  virtual void when_synced(std::function<void(std::string error)> done) { done({}); }
  // The bound within which a journal on this storage makes a change durable
  // unless the queue says otherwise (sync-within): 50 ms natively and in
  // Node, longer where a commit costs more (the browser: 250 ms).
  virtual std::int64_t default_sync_within_ms() const { return 50; }
  // Takes the writer's lock of a file; throws JournalLockedError when held elsewhere.
  virtual void lock(const std::string& name) = 0;
  virtual void unlock(const std::string& name) = 0;
};

}  // namespace mailroom
