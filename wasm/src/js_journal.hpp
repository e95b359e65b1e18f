// JsJournal: the core Journal interface over a JS object (Node's NodeJournal,
// real files via node:fs) — read/append/flush/deleteUpTo called synchronously
// through hooks.journalCall, which turns a JS throw into { thrown }.
#pragma once

#include <emscripten/val.h>

#include "mailroom/journal.hpp"

namespace mailroom::wasm {

class JsJournal final : public Journal {
 public:
  explicit JsJournal(emscripten::val journal) : journal_(std::move(journal)) {}

  JournalReadResult read(const std::string& stream) override;
  std::uint64_t append(const std::string& stream, std::string payload) override;
  void flush() override;
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override;

 private:
  emscripten::val call(const char* method, emscripten::val a, emscripten::val b);
  emscripten::val journal_;
};

}  // namespace mailroom::wasm
