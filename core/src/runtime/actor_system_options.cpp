#include "mailroom/actor_system_options.hpp"

#include "mailroom/errors.hpp"

namespace mailroom {

ActorSystemOptions& ActorSystemOptions::with_dispatcher(std::shared_ptr<Dispatcher> dispatcher) {
  dispatcher_ = std::move(dispatcher);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_dead_letter_sink(
    std::shared_ptr<DeadLetterSink> sink) {
  sink_ = std::move(sink);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_config(std::string hocon) {
  config_ = std::move(hocon);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_dead_letters(DeadLetterQueueOptions options) {
  dead_letters_ = std::move(options);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_payload_codecs(
    std::shared_ptr<PayloadCodecRegistry> codecs) {
  codecs_ = std::move(codecs);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_metrics(bool enabled) {
  metrics_ = enabled;
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_log_sink(LogSink sink) {
  log_sink_ = std::move(sink);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_log_level(LogLevel level) {
  log_level_ = level;
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_log_level(std::string_view level) {
  auto parsed = log_level_from_string(level);
  if (!parsed) {
    throw OptionsError("ActorSystemOptions", "logLevel", std::string(level),
                       "must be one of debug, info, warn, error, off");
  }
  return with_log_level(*parsed);
}
ActorSystemOptions& ActorSystemOptions::with_clock(Clock now_ms) {
  clock_ = std::move(now_ms);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_journal(std::shared_ptr<Journal> journal) {
  journal_ = std::move(journal);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_journal_sync_timer(SyncTimer timer) {
  sync_timer_ = std::move(timer);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_journal_dir(std::string dir) {
  // "" would silently mean the working folder (or the default one).
  if (dir.empty()) {
    throw OptionsError("ActorSystemOptions", "journalDir", "",
                       "must name a folder (leave it unset for the default)");
  }
  journal_dir_ = std::move(dir);
  return *this;
}
ActorSystemOptions& ActorSystemOptions::with_devtools(DevtoolsOptions options) {
  if (options.bind.empty()) {
    throw OptionsError("DevtoolsOptions", "bind", "",
                       "must name an address (127.0.0.1 by default)");
  }
  // A chosen token (to keep a URL across restarts) is as hard to guess as a
  // random one and travels in a URL unescaped.
  const bool url_safe =
      options.token.find_first_not_of(
          "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") == std::string::npos;
  if (!options.token.empty() && (options.token.size() < 16 || !url_safe)) {
    throw OptionsError("DevtoolsOptions", "token", "(hidden)",
                       "a token is empty (random per start) or 16+ characters of [A-Za-z0-9_-]");
  }
  if (options.max_queued_frames == 0) {
    throw OptionsError("DevtoolsOptions", "maxQueuedFrames", "0",
                       "a socket needs room for at least one frame");
  }
  devtools_ = std::move(options);
  return *this;
}

}  // namespace mailroom
