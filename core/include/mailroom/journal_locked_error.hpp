// A journal stream already has a writer (another system of this process or
// another process): a second writer is refused with this error, never merged.
#pragma once

#include <stdexcept>
#include <string>

namespace mailroom {

class JournalLockedError : public std::runtime_error {
 public:
  // holder: who has it, as far as known ("this process", "process 4242").
  JournalLockedError(std::string stream, std::string location, const std::string& holder);
  const std::string& stream() const noexcept { return stream_; }
  const std::string& location() const noexcept { return location_; }
  const std::string& holder() const noexcept { return holder_; }

 private:
  std::string stream_, location_, holder_;
};

}  // namespace mailroom
