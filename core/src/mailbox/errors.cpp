#include "mailroom/errors.hpp"

namespace mailroom {

OptionsError::OptionsError(std::string family, std::string field, std::string value,
                           const std::string& why)
    : std::invalid_argument(family + "." + field + " = " + value + ": " + why),
      family_(std::move(family)),
      field_(std::move(field)),
      value_(std::move(value)) {}

MailboxFullError::MailboxFullError(std::string path, std::size_t capacity)
    : std::runtime_error("mailbox of " + (path.empty() ? std::string("<unowned>") : path) +
                         " is full (capacity " + std::to_string(capacity) + ", overflow reject)"),
      path_(std::move(path)),
      capacity_(capacity) {}

StashOverflowError::StashOverflowError(std::size_t capacity)
    : std::runtime_error("stash is full (capacity " + std::to_string(capacity) + ")") {}

ConfigError::ConfigError(const std::string& what, int line, int column)
    : std::runtime_error("config error at line " + std::to_string(line) + ", column " +
                         std::to_string(column) + ": " + what),
      line_(line),
      column_(column) {}

}  // namespace mailroom
