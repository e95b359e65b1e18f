#include "mailroom/journal_locked_error.hpp"

namespace mailroom {

JournalLockedError::JournalLockedError(std::string stream, std::string location,
                                       const std::string& holder)
    : std::runtime_error("journal stream '" + stream + "' (" + location +
                         ") already has a writer (" + holder +
                         "): one writer per stream; stop the other system or give this one "
                         "another name or persistence-id"),
      stream_(std::move(stream)),
      location_(std::move(location)),
      holder_(holder) {}

}  // namespace mailroom
