// Numbers in configuration, JSON and the metrics text are written and read
// the same way whatever locale the host process set: a program that calls
// setlocale(LC_ALL, "de_DE.UTF-8") must still read "1.5s" as 1500 ms, and
// Prometheus must still see "0.5", not "0,5". strtod and printf follow the
// C locale of the calling thread, so the few calls that parse or print a
// double run inside a CLocaleScope (thread-local, no allocation).
#pragma once

#include <locale.h>
#include <clocale>

namespace mailroom::detail {

class CLocaleScope {
 public:
  CLocaleScope() noexcept : previous_(c_locale() ? ::uselocale(c_locale()) : nullptr) {}
  ~CLocaleScope() {
    if (previous_) ::uselocale(previous_);
  }
  CLocaleScope(const CLocaleScope&) = delete;
  CLocaleScope& operator=(const CLocaleScope&) = delete;

 private:
  // Made once per process and never freed (it outlives every thread's scope).
  static locale_t c_locale() noexcept {
    static const locale_t c = ::newlocale(LC_ALL_MASK, "C", static_cast<locale_t>(0));
    return c;
  }
  locale_t previous_;
};

}  // namespace mailroom::detail
