#include "mailroom/logger.hpp"

#include <iostream>
#include <mutex>

#include "log_router.hpp"

namespace mailroom {

void Logger::log(LogLevel level, std::string_view message) const {
  if (router_) router_->emit(level, source_, message);
}

bool Logger::enabled(LogLevel level) const noexcept {
  return router_ && router_->enabled(level);
}

namespace detail {

LogRouter::LogRouter(LogSink sink, ActorSystemOptions::Clock clock,
                     std::shared_ptr<EventStream> events)
    : sink_(sink ? std::move(sink) : console_sink()),
      clock_(std::move(clock)),
      events_(std::move(events)) {}

void LogRouter::emit(LogLevel level, const std::string& source, std::string_view message) const {
  if (!enabled(level)) return;
  LogEvent event{level, source, std::string(message), clock_ ? clock_() : 0};
  try {
    sink_(event);
  } catch (...) {
    // A broken sink must not break the actor that logged.
  }
  if (events_) events_->publish(Message(std::move(event)));
}

LogSink LogRouter::console_sink() {
  return [](const LogEvent& event) {
    std::ostream& out = event.level >= LogLevel::kWarn ? std::cerr : std::cout;
    // The line is built first and written whole under one lock: actors log
    // from many threads, and a line must never be interleaved with another.
    const std::string_view level = to_string(event.level);
    std::string line;
    line.reserve(level.size() + event.source.size() + event.message.size() + 6);
    line.append("[").append(level).append("] ").append(event.source).append(": ");
    line.append(event.message).push_back('\n');
    static std::mutex console;
    std::lock_guard<std::mutex> lock(console);
    out.write(line.data(), static_cast<std::streamsize>(line.size()));
  };
}

}  // namespace detail
}  // namespace mailroom
