#include "js_journal.hpp"

#include <emscripten/val.h>

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
