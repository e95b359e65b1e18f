#include "js_journal.hpp"

#include <emscripten/val.h>

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <utility>

#include "js_hooks.hpp"
#include "mailroom/journal_locked_error.hpp"

namespace mailroom::wasm {

using emscripten::typed_memory_view;
using emscripten::val;

namespace {
// A view of bytes in wasm memory; valid while no wasm allocation happens,
// i.e. for the duration of one synchronous JS call.
val bytes_view(std::string_view bytes) {
  return val(typed_memory_view(bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data())));
}
}  // namespace

val JsJournalStorage::call(const char* method, const std::string& name, val a, val b) const {
  val result = hooks()["journalCall"](storage_, std::string(method), val(name), a, b);
  if (threw(result)) throw JsError(result["thrown"]);
  return result["value"];
}

std::string JsJournalStorage::location(const std::string& name) const {
  return call("location", name, val::undefined(), val::undefined()).as<std::string>();
}

std::uint64_t JsJournalStorage::size(const std::string& name) {
  return static_cast<std::uint64_t>(
      call("size", name, val::undefined(), val::undefined()).as<double>());
}

std::string JsJournalStorage::read(const std::string& name, std::uint64_t offset,
                                   std::size_t length) {
  std::string out(length, '\0');
  const auto got = static_cast<std::size_t>(
      call("read", name, val(static_cast<double>(offset)),
           val(typed_memory_view(out.size(), reinterpret_cast<unsigned char*>(out.data()))))
          .as<double>());
  out.resize(got < length ? got : length);
  return out;
}

void JsJournalStorage::append(const std::string& name, std::string_view bytes) {
  call("append", name, bytes_view(bytes), val::undefined());
}

void JsJournalStorage::replace(const std::string& name, std::string_view bytes) {
  call("replace", name, bytes_view(bytes), val::undefined());
}

void JsJournalStorage::sync(const std::string& name) {
  call("sync", name, val::undefined(), val::undefined());
}

namespace {
// Callbacks waiting for an IndexedDB commit, by the token JS hands back.
std::unordered_map<std::uint32_t, std::function<void(std::string)>>& waiting() {
  static std::unordered_map<std::uint32_t, std::function<void(std::string)>> table;
  return table;
}
std::uint32_t next_token = 1;
}  // namespace

void JsJournalStorage::when_synced(std::function<void(std::string error)> done) {
  if (storage_["whenSynced"].typeOf().as<std::string>() != "function") {
    done({});
    return;
  }
  const std::uint32_t token = next_token++;
  waiting().emplace(token, std::move(done));
  try {
    call("whenSynced", std::string(), val(token), val::undefined());
  } catch (...) {
    auto it = waiting().find(token);
    if (it == waiting().end()) throw;  // JS already answered
    auto callback = std::move(it->second);
    waiting().erase(it);
    callback("cannot wait for the journal's commit");
  }
}

std::int64_t JsJournalStorage::default_sync_within_ms() const {
  val bound = storage_["syncWithinMs"];
  if (bound.typeOf().as<std::string>() == "number") {
    return static_cast<std::int64_t>(bound.as<double>());
  }
  return JournalStorage::default_sync_within_ms();
}

void journal_synced(std::uint32_t token, std::string error) {
  auto it = waiting().find(token);
  if (it == waiting().end()) return;
  auto done = std::move(it->second);
  waiting().erase(it);
  done(std::move(error));
}

// JS answers null when the lock is ours, else who holds it.
void JsJournalStorage::lock(const std::string& name) {
  val holder = call("lock", name, val::undefined(), val::undefined());
  if (holder.isNull() || holder.isUndefined()) return;
  throw JournalLockedError(name, location(name), holder.as<std::string>());
}

void JsJournalStorage::unlock(const std::string& name) {
  call("unlock", name, val::undefined(), val::undefined());
}

}  // namespace mailroom::wasm
