// LogRouter: where every Logger of one system writes — the sink, then the
// event stream — for events at or above the system's level (the one rule,
// natively and in wasm; the JS logger is only a sink behind it).
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <string_view>

#include "mailroom/actor_system_options.hpp"
#include "mailroom/event_stream.hpp"
#include "mailroom/log_event.hpp"

namespace mailroom::detail {

class LogRouter {
 public:
  LogRouter(LogSink sink, ActorSystemOptions::Clock clock, std::shared_ptr<EventStream> events);
  void emit(LogLevel level, const std::string& source, std::string_view message) const;
  bool enabled(LogLevel level) const noexcept {
    return log_level_passes(level, threshold_.load(std::memory_order_relaxed));
  }
  // Set once the configuration is read, before any actor runs.
  void set_threshold(LogLevel threshold) noexcept {
    threshold_.store(threshold, std::memory_order_relaxed);
  }
  LogLevel threshold() const noexcept { return threshold_.load(std::memory_order_relaxed); }

  // Default sink: "[level] source: message", debug and info to stdout, warn
  // and error to stderr.
  static LogSink console_sink();

 private:
  std::atomic<LogLevel> threshold_{LogLevel::kInfo};
  LogSink sink_;
  ActorSystemOptions::Clock clock_;
  std::shared_ptr<EventStream> events_;
};

}  // namespace mailroom::detail
