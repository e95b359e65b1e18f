// The failure of creating an actor: its factory, constructor, pre_start or
// post_restart threw. The default decider stops such an actor rather than
// restarting it into the same failure forever.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace mailroom {

class ActorInitializationError : public std::runtime_error {
 public:
  ActorInitializationError(const std::string& path, std::exception_ptr cause);
  // What the factory / hook threw.
  std::exception_ptr cause() const noexcept { return cause_; }

 private:
  std::exception_ptr cause_;
};

}  // namespace mailroom
