#include "mailroom/devtools_not_linked_error.hpp"

namespace mailroom {

DevtoolsNotLinkedError::DevtoolsNotLinkedError(std::string source)
    : std::logic_error(source +
                       " asks for the DevTools server, but its library is not linked into this "
                       "program: target_link_libraries(<app> PRIVATE mailroom::devtools_server)"),
      source_(std::move(source)) {}

}  // namespace mailroom
