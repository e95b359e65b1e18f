// The JS functions the binding calls back (wasm/js/hooks.js installs them once,
// at import). Every hook catches its own exceptions and answers { thrown }, so
// no JS exception ever unwinds through C++ frames.
#pragma once

#include <emscripten/val.h>

#include <stdexcept>

namespace mailroom::wasm {

void install_hooks(emscripten::val hooks);
const emscripten::val& hooks();

// True when a hook answered { thrown: error }.
bool threw(const emscripten::val& result);

// A C++ exception carrying a JS value thrown by user code, so supervision sees
// it and preRestart(reason) gets the very JS error back.
class JsError : public std::runtime_error {
 public:
  explicit JsError(emscripten::val error);
  const emscripten::val& value() const noexcept { return value_; }

 private:
  emscripten::val value_;
};

// Throws the C++ error a hook's { thrown } stands for: MailboxFullError and
// OptionsError keep their core type (the core reacts to those), anything else
// is a JsError.
[[noreturn]] void rethrow_js(const emscripten::val& error);

}  // namespace mailroom::wasm
