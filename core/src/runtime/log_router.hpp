// LogRouter: where every Logger of one system writes — the sink, then the
// event stream.
#pragma once

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

  // Default sink: warn and error to stderr.
  static LogSink stderr_sink();

 private:
  LogSink sink_;
  ActorSystemOptions::Clock clock_;
  std::shared_ptr<EventStream> events_;
};

}  // namespace mailroom::detail
