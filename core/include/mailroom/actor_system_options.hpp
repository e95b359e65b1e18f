// ActorSystemOptions: what ActorSystem::create accepts. A value type.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/dead_letter_sink.hpp"
#include "mailroom/devtools_options.hpp"
#include "mailroom/dispatcher.hpp"
#include "mailroom/journal.hpp"
#include "mailroom/log_event.hpp"
#include "mailroom/payload_codec_registry.hpp"

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
  // HOCON text (mailroom.dead-letters, mailroom.log-dead-letters,
  // mailroom.journal.dir); malformed text fails create() with ConfigError.
  ActorSystemOptions& with_config(std::string hocon);
  // The dead-letter queue's knobs; per field they win over the HOCON block.
  ActorSystemOptions& with_dead_letters(DeadLetterQueueOptions options);
  // How captured payloads are encoded for the persistent store (the wasm
  // layer plugs JS values in here). Default: std::string, bool, int, double.
  ActorSystemOptions& with_payload_codecs(std::shared_ptr<PayloadCodecRegistry> codecs);
  ActorSystemOptions& with_metrics(bool enabled);
  // Where log events at or above the log level go. Default: debug and info
  // to stdout, warn and error to stderr.
  ActorSystemOptions& with_log_sink(LogSink sink);
  // The threshold (default info; over HOCON mailroom.logger.level). kOff
  // silences the sink and the event stream's LogEvents alike.
  ActorSystemOptions& with_log_level(LogLevel level);
  // By name ("debug", "info", "warn", "error", "off"); an unknown name in code
  // is OptionsError{"ActorSystemOptions", "logLevel", name} (HOCON falls back
  // to info with a warning instead).
  ActorSystemOptions& with_log_level(std::string_view level);
  ActorSystemOptions& with_clock(Clock now_ms);
  ActorSystemOptions& with_journal(std::shared_ptr<Journal> journal);
  // The timer behind the dead-letter journal's sync-within bound, for a host
  // that drives the core from its own event loop (the wasm build: setTimeout):
  // called with a delay, it must call system.dead_letter_queue().sync_due()
  // that much later. Unset: a syncer thread of the queue's own.
  using SyncTimer = std::function<void(std::int64_t delay_ms)>;
  ActorSystemOptions& with_journal_sync_timer(SyncTimer timer);
  ActorSystemOptions& with_journal_dir(std::string dir);
  // Serve the DevTools panel, /metrics and /healthz from this process while
  // the system runs (stopped at terminate). Needs the mailroom_devtools_server
  // library linked in, else create() throws DevtoolsNotLinkedError. Wins over
  // a HOCON mailroom.devtools block, which starts the server the same way.
  ActorSystemOptions& with_devtools(DevtoolsOptions options = {});

  const std::shared_ptr<Dispatcher>& dispatcher() const noexcept { return dispatcher_; }
  const std::shared_ptr<DeadLetterSink>& dead_letter_sink() const noexcept { return sink_; }
  const std::optional<std::string>& config() const noexcept { return config_; }
  const DeadLetterQueueOptions& dead_letters() const noexcept { return dead_letters_; }
  const std::shared_ptr<PayloadCodecRegistry>& payload_codecs() const noexcept { return codecs_; }
  bool metrics() const noexcept { return metrics_; }
  const LogSink& log_sink() const noexcept { return log_sink_; }
  const std::optional<LogLevel>& log_level() const noexcept { return log_level_; }
  const Clock& clock() const noexcept { return clock_; }
  const std::shared_ptr<Journal>& journal() const noexcept { return journal_; }
  const SyncTimer& journal_sync_timer() const noexcept { return sync_timer_; }
  const std::optional<std::string>& journal_dir() const noexcept { return journal_dir_; }
  const std::optional<DevtoolsOptions>& devtools() const noexcept { return devtools_; }

 private:
  std::shared_ptr<Dispatcher> dispatcher_;
  std::shared_ptr<DeadLetterSink> sink_;
  std::optional<std::string> config_;
  DeadLetterQueueOptions dead_letters_;
  std::shared_ptr<PayloadCodecRegistry> codecs_;
  bool metrics_ = true;
  LogSink log_sink_;
  std::optional<LogLevel> log_level_;
  Clock clock_;
  std::shared_ptr<Journal> journal_;
  SyncTimer sync_timer_;
  std::optional<std::string> journal_dir_;
  std::optional<DevtoolsOptions> devtools_;
};

}  // namespace mailroom
