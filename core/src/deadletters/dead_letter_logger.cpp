#include "mailroom/dead_letter_logger.hpp"

namespace mailroom {
namespace {

// "10s" for whole seconds, "1500ms" otherwise.
std::string duration_text(std::int64_t ms) {
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + "s";
  return std::to_string(ms) + "ms";
}

std::string describe(const DeadLetter& letter) {
  return "dead letter: " + letter.message.type_name() + " from " +
         (letter.sender_path.empty() ? std::string("no sender") : letter.sender_path) + " to " +
         (letter.recipient_path.empty() ? std::string("<unknown>") : letter.recipient_path) +
         " was not delivered";
}

}  // namespace

std::vector<std::string> DeadLetterLogger::on_letter(const DeadLetter& letter,
                                                     std::int64_t now_ms) {
  std::vector<std::string> lines;
  if (settings_.log_first == 0) return lines;
  std::lock_guard<std::mutex> lock(mutex_);
  if (logged_ < settings_.log_first) {
    ++logged_;
    lines.push_back(describe(letter));
    return lines;
  }
  if (suppressed_ == 0) window_start_ms_ = now_ms;
  ++suppressed_;
  if (now_ms - window_start_ms_ >= settings_.summary_interval_ms) {
    lines.push_back(summary_locked(now_ms));
  }
  return lines;
}

std::optional<std::string> DeadLetterLogger::on_tick(std::int64_t now_ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (suppressed_ == 0 || now_ms - window_start_ms_ < settings_.summary_interval_ms) {
    return std::nullopt;
  }
  return summary_locked(now_ms);
}

std::optional<std::string> DeadLetterLogger::flush(std::int64_t now_ms) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (suppressed_ == 0) return std::nullopt;
  return summary_locked(now_ms);
}

std::string DeadLetterLogger::summary_locked(std::int64_t now_ms) {
  std::string line = "suppressed " + std::to_string(suppressed_) + " dead letters in the last " +
                     duration_text(now_ms - window_start_ms_);
  suppressed_ = 0;
  return line;
}

}  // namespace mailroom
