// JsJournalStorage: the bytes under the core's FileJournal, moved by a JS
// object (node:fs in Node: wasm/js/node_journal.js; IndexedDB in the browser:
// wasm/js/browser_journal.js). The format, sequence numbers, compaction and
// recovery stay in the core; JS only appends, reads a range into wasm memory,
// replaces a file atomically and locks. Calls go through hooks.journalCall,
// which turns a JS throw into { thrown } so no JS exception unwinds C++ frames.
#pragma once

#include <emscripten/val.h>

#include "mailroom/journal_storage.hpp"

namespace mailroom::wasm {

class JsJournalStorage final : public JournalStorage {
 public:
  explicit JsJournalStorage(emscripten::val storage) : storage_(std::move(storage)) {}

  std::string location(const std::string& name) const override;
  std::uint64_t size(const std::string& name) override;
  std::string read(const std::string& name, std::uint64_t offset, std::size_t length) override;
  void append(const std::string& name, std::string_view bytes) override;
  void replace(const std::string& name, std::string_view bytes) override;
  void sync(const std::string& name) override;
  // IndexedDB confirms after sync() returns: JS calls journal_synced(token)
  // once committed. A storage without whenSynced (node:fs, whose sync is
  // fdatasync) confirms at once.
  void when_synced(std::function<void(std::string error)> done) override;
  // The storage's syncWithinMs when it names one (the browser: 250), else 50.
  std::int64_t default_sync_within_ms() const override;
  void lock(const std::string& name) override;
  void unlock(const std::string& name) override;

 private:
  emscripten::val call(const char* method, const std::string& name, emscripten::val a,
                       emscripten::val b) const;
  emscripten::val storage_;
};

// Called from JS (embind journalSynced) when a whenSynced(token) completed:
// runs the waiting callback with "" or the failure.
void journal_synced(std::uint32_t token, std::string error);

}  // namespace mailroom::wasm
