// ActorSystemOptions: what ActorSystem::create accepts. A value type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "mailroom/dead_letter_sink.hpp"
#include "mailroom/dispatcher.hpp"
#include "mailroom/journal.hpp"
#include "mailroom/log_event.hpp"

namespace mailroom {

class ActorSystemOptions {
 public:
  using Clock = std::function<std::int64_t()>;  // wall-clock milliseconds

  static ActorSystemOptions create() { return ActorSystemOptions(); }

  // Default: a ThreadPoolDispatcher natively.
  ActorSystemOptions& with_dispatcher(std::shared_ptr<Dispatcher> dispatcher);
  // The capture slot for dead letters (the dead-letter queue); sees every
  // letter before the event stream does.
  ActorSystemOptions& with_dead_letter_sink(std::shared_ptr<DeadLetterSink> sink);
  // HOCON text, parsed by whoever reads it (the dead-letter queue).
  ActorSystemOptions& with_config(std::string hocon);
  ActorSystemOptions& with_metrics(bool enabled);
  // Default: warn and error to stderr.
  ActorSystemOptions& with_log_sink(LogSink sink);
  ActorSystemOptions& with_clock(Clock now_ms);
  ActorSystemOptions& with_journal(std::shared_ptr<Journal> journal);
  ActorSystemOptions& with_journal_dir(std::string dir);

  const std::shared_ptr<Dispatcher>& dispatcher() const noexcept { return dispatcher_; }
  const std::shared_ptr<DeadLetterSink>& dead_letter_sink() const noexcept { return sink_; }
  const std::optional<std::string>& config() const noexcept { return config_; }
  bool metrics() const noexcept { return metrics_; }
  const LogSink& log_sink() const noexcept { return log_sink_; }
  const Clock& clock() const noexcept { return clock_; }
  const std::shared_ptr<Journal>& journal() const noexcept { return journal_; }
  const std::optional<std::string>& journal_dir() const noexcept { return journal_dir_; }

 private:
  std::shared_ptr<Dispatcher> dispatcher_;
  std::shared_ptr<DeadLetterSink> sink_;
  std::optional<std::string> config_;
  bool metrics_ = true;
  LogSink log_sink_;
  Clock clock_;
  std::shared_ptr<Journal> journal_;
  std::optional<std::string> journal_dir_;
};

}  // namespace mailroom
