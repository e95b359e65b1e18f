// The journal entry points JS needs besides the JsJournalStorage hooks: the
// core encodes a whole file, so converting an old Node journal (JSON lines)
// leaves the format to the core and JS only writes the bytes.
#include <string>
#include <vector>

#include "api.hpp"
#include "error_records.hpp"
#include "mailroom/file_journal.hpp"

namespace mailroom::wasm::api {

using emscripten::typed_memory_view;
using emscripten::val;

val journal_encode_file(double base_sequence, val records) {
  return guarded([&] {
    std::vector<JournalRecord> list;
    const int n = records["length"].as<int>();
    list.reserve(n);
    for (int i = 0; i < n; ++i) {
      list.push_back(JournalRecord{static_cast<std::uint64_t>(records[i]["sequence"].as<double>()),
                                   records[i]["payload"].as<std::string>()});
    }
    const std::string bytes =
        FileJournal::encode_file(static_cast<std::uint64_t>(base_sequence), list);
    val out = val::object();
    // A copy: the view into wasm memory dies with `bytes`.
    out.set("bytes", val::global("Uint8Array")
                         .new_(val(typed_memory_view(
                             bytes.size(), reinterpret_cast<const unsigned char*>(bytes.data())))));
    return out;
  });
}

}  // namespace mailroom::wasm::api
