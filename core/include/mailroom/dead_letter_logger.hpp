// DeadLetterLogger: decides which log lines a dead letter produces. Pure
// logic (the caller writes the lines), called on the publish path *after*
// capture, so suppression never makes the queue's record incomplete.
// Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "mailroom/dead_letter.hpp"
#include "mailroom/dead_letter_log_settings.hpp"

namespace mailroom {

class DeadLetterLogger {
 public:
  explicit DeadLetterLogger(DeadLetterLogSettings settings) : settings_(settings) {}

  // The first log_first letters give one line each; after that letters are
  // counted, and the first letter arriving once summary_interval_ms has
  // passed since the suppression window opened gives the summary
  // "suppressed K dead letters in the last T" (K includes that letter).
  std::vector<std::string> on_letter(const DeadLetter& letter, std::int64_t now_ms);
  // The pending summary if the window has run its interval (for a periodic
  // tick or shutdown, so a quiet tail is still reported).
  std::optional<std::string> on_tick(std::int64_t now_ms);
  // The pending summary whatever the interval (shutdown: the quiet tail of
  // the last burst is reported, never silently lost).
  std::optional<std::string> flush(std::int64_t now_ms);

  const DeadLetterLogSettings& settings() const noexcept { return settings_; }

 private:
  std::string summary_locked(std::int64_t now_ms);

  const DeadLetterLogSettings settings_;
  std::mutex mutex_;
  std::size_t logged_ = 0;
  std::uint64_t suppressed_ = 0;
  std::int64_t window_start_ms_ = 0;
};

}  // namespace mailroom
