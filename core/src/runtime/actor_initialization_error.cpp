#include "mailroom/actor_initialization_error.hpp"

#include "describe_exception.hpp"

namespace mailroom {

ActorInitializationError::ActorInitializationError(const std::string& path,
                                                   std::exception_ptr cause)
    : std::runtime_error("could not create " + path + ": " + detail::describe_exception(cause)),
      cause_(cause) {}

}  // namespace mailroom
