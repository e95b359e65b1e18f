// C++ exceptions never cross embind: every entry point catches and answers an
// error record { error: { type, message, ...facts } } that wasm/js turns into
// the typed JS error (OptionsError with family/field/value, ...).
#pragma once

#include <emscripten/val.h>

#include <exception>
#include <utility>

#include "mailroom/errors.hpp"

namespace mailroom::wasm {

// { type, message, ... } for an exception.
emscripten::val error_record(std::exception_ptr error);
// { type: 'OptionsError', message, family, field, value } without a throw.
emscripten::val options_error_record(const OptionsError& error);
// { error: record }
emscripten::val error_status(std::exception_ptr error);
// The JS value for an exception (a JS error's own value, else a typed JS error).
emscripten::val error_to_js(std::exception_ptr error);
// As error_to_js, but a failed start stays an ActorInitializationError (with
// the original error as `cause`), as a supervision decider sees it.
emscripten::val failure_to_js(std::exception_ptr error);

// Runs fn; its result (or undefined for void), or an error status.
template <class F>
emscripten::val guarded(F&& fn) {
  try {
    if constexpr (std::is_void_v<decltype(fn())>) {
      fn();
      return emscripten::val::undefined();
    } else {
      return emscripten::val(fn());
    }
  } catch (...) {
    return error_status(std::current_exception());
  }
}

}  // namespace mailroom::wasm
