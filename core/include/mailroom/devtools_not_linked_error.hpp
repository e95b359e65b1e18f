// The DevTools server was asked for (ActorSystemOptions::with_devtools or HOCON
// mailroom.devtools) but its library is not in the program: the system refuses
// to start rather than run silently without the server.
#pragma once

#include <stdexcept>
#include <string>

namespace mailroom {

class DevtoolsNotLinkedError : public std::logic_error {
 public:
  // source: what asked for it ("with_devtools", "mailroom.devtools").
  explicit DevtoolsNotLinkedError(std::string source);
  const std::string& source() const noexcept { return source_; }

 private:
  std::string source_;
};

}  // namespace mailroom
