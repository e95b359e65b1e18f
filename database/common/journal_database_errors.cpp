#include "mailroom/journal_database_errors.hpp"

namespace mailroom {

JournalUnavailableError::JournalUnavailableError(std::string location, const std::string& why)
    : std::runtime_error("journal database " + location + " is unavailable: " + why),
      location_(std::move(location)) {}

JournalConflictError::JournalConflictError(std::string stream, std::uint64_t sequence,
                                           const std::string& location)
    : std::runtime_error("journal stream '" + stream + "' (" + location + ") already holds a " +
                         "different record " + std::to_string(sequence) +
                         ": it was not overwritten, and this stream takes no more appends"),
      stream_(std::move(stream)),
      sequence_(sequence) {}

JournalBacklogFullError::JournalBacklogFullError(std::string stream, std::uint64_t backlog,
                                                 const std::string& location)
    : std::runtime_error("journal stream '" + stream + "' (" + location +
                         "): " + std::to_string(backlog) +
                         " records already wait for the database; this append is refused " +
                         "(the queued ones are kept and retried)"),
      stream_(std::move(stream)),
      backlog_(backlog) {}

JournalSchemaError::JournalSchemaError(std::string location, const std::string& why)
    : std::runtime_error("journal database " + location + ": " + why),
      location_(std::move(location)) {}

}  // namespace mailroom
