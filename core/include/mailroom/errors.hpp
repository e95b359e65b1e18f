// The named errors Mailroom raises. Each carries the facts a caller needs to
// act on it (field and value, path, line and column), not just a sentence.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mailroom {

// Invalid option or combination. family: "ActorOptions", "BoundedMailbox",
// "PriorityMailbox", "DeadLetterQueueOptions", "ActorSystemOptions", ...
class OptionsError : public std::invalid_argument {
 public:
  OptionsError(std::string family, std::string field, std::string value, const std::string& why);
  const std::string& family() const noexcept { return family_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& value() const noexcept { return value_; }

 private:
  std::string family_, field_, value_;
};

// A bounded mailbox with the reject policy refused a message (thrown at tell).
class MailboxFullError : public std::runtime_error {
 public:
  MailboxFullError(std::string path, std::size_t capacity);
  const std::string& path() const noexcept { return path_; }
  std::size_t capacity() const noexcept { return capacity_; }

 private:
  std::string path_;
  std::size_t capacity_;
};

// stash() beyond the stash capacity (1024 by default).
class StashOverflowError : public std::runtime_error {
 public:
  explicit StashOverflowError(std::size_t capacity);
};

// Malformed HOCON: what went wrong and where (1-based line and column).
class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& what, int line, int column);
  int line() const noexcept { return line_; }
  int column() const noexcept { return column_; }

 private:
  int line_, column_;
};

// Duplicate or malformed actor name.
class InvalidActorNameError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// An API used where it is not allowed (stash outside a handler, spawn on a
// terminated system, ...).
class IllegalStateError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// The failure a Kill message causes in its actor.
class ActorKilledError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A persisted journal could not be read completely (torn tail, bad checksum).
class JournalCorruptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mailroom
