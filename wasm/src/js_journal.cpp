#include "js_journal.hpp"

#include <stdexcept>

#include "js_hooks.hpp"

namespace mailroom::wasm {

using emscripten::val;

val JsJournal::call(const char* method, val a, val b) {
  val result = hooks()["journalCall"](journal_, std::string(method), a, b);
  if (threw(result)) throw JsError(result["thrown"]);
  return result["value"];
}

JournalReadResult JsJournal::read(const std::string& stream) {
  val r = call("read", val(stream), val::undefined());
  JournalReadResult out;
  val records = r["records"];
  const int n = records["length"].as<int>();
  out.records.reserve(n);
  for (int i = 0; i < n; ++i) {
    JournalRecord record;
    record.sequence = static_cast<std::uint64_t>(records[i]["sequence"].as<double>());
    record.payload = records[i]["payload"].as<std::string>();
    out.records.push_back(std::move(record));
  }
  out.damaged = r["damaged"].as<bool>();
  out.damaged_at_offset = static_cast<std::uint64_t>(r["damagedAtOffset"].as<double>());
  out.damage = r["damage"].as<std::string>();
  return out;
}

std::uint64_t JsJournal::append(const std::string& stream, std::string payload) {
  return static_cast<std::uint64_t>(call("append", val(stream), val(payload)).as<double>());
}

void JsJournal::flush() {
  call("flush", val::undefined(), val::undefined());
}

void JsJournal::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  call("deleteUpTo", val(stream), val(static_cast<double>(up_to)));
}

}  // namespace mailroom::wasm
