#include <cstdlib>
#include <memory>
#include <string>

#if defined(__GNUG__) || defined(__clang__)
#include <cxxabi.h>
#endif

#include "mailroom/message.hpp"

namespace mailroom {

std::string demangle(const char* mangled_name) {
#if defined(__GNUG__) || defined(__clang__)
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled_name, nullptr, nullptr, &status), std::free);
  if (status == 0 && out) return out.get();
#endif
  return mangled_name;
}

}  // namespace mailroom
