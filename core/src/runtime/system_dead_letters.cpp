// The system's side of dead letters: building its own queue from options and
// HOCON, and publishing every letter (the sink first, then the opt-in log —
// after capture, so it can never thin the record — then the event stream).
#include <nlohmann/json.hpp>

#include "actor_cell.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/journal_url.hpp"
#include "system_core.hpp"

namespace mailroom::detail {
namespace {

// Where the persistent store writes when nobody said: a folder beside the
// process natively, the in-memory file system under Emscripten (the wasm
// layer mounts IndexedDB there in the browser).
std::string default_journal_dir() {
#ifdef __EMSCRIPTEN__
  return "/mailroom/journal";
#else
  return "mailroom-journal";
#endif
}

std::shared_ptr<PayloadCodecRegistry> default_codecs() {
  auto codecs = std::make_shared<PayloadCodecRegistry>();
  codecs->add<std::string>(
      "string", [](const std::string& v) { return nlohmann::json(v); },
      [](const nlohmann::json& j) { return j.get<std::string>(); });
  codecs->add<bool>(
      "bool", [](const bool& v) { return nlohmann::json(v); },
      [](const nlohmann::json& j) { return j.get<bool>(); });
  codecs->add<int>(
      "int", [](const int& v) { return nlohmann::json(v); },
      [](const nlohmann::json& j) { return j.get<int>(); });
  codecs->add<double>(
      "double", [](const double& v) { return nlohmann::json(v); },
      [](const nlohmann::json& j) { return j.get<double>(); });
  return codecs;
}

}  // namespace

void SystemCore::install_dead_letter_queue() {
  const DeadLetterQueueSettings settings =
      options_.dead_letters().resolve(&config_, name_);  // OptionsError names the field

  DeadLetterQueue::Dependencies deps;
  deps.target = this;
  deps.now_ms = [this] { return now_ms(); };
  codecs_ = options_.payload_codecs() ? options_.payload_codecs() : default_codecs();
  deps.codecs = codecs_.get();
  deps.metrics = &metrics_;
  deps.report_damage = [this](const std::string& what) {
    log_.warn("dead-letter journal: " + what);
  };
  if (settings.store == DeadLetterStore::kPersistent) {
    deps.sync_timer = options_.journal_sync_timer();
    deps.journal = options_.journal();
    // Code wins over HOCON; a URL names a database journal some linked
    // library registered (an unknown scheme fails create, naming it).
    const std::string url = config_.get_string("mailroom.journal.url").value_or("");
    if (!deps.journal && !options_.journal_dir() && !url.empty()) {
      deps.journal = open_journal_url(url);
    }
    if (!deps.journal) {
      std::string dir = options_.journal_dir().value_or("");
      if (dir.empty()) dir = config_.get_string("mailroom.journal.dir").value_or("");
      if (dir.empty()) dir = default_journal_dir();
      deps.journal = std::make_shared<FileJournal>(dir);
    }
  }
  queue_ = std::make_shared<DeadLetterQueue>(settings, std::move(deps));

  const DeadLetterLogSettings log_settings = DeadLetterLogSettings::from_config(&config_);
  if (log_settings.log_first > 0) {
    dead_letter_logger_ = std::make_unique<DeadLetterLogger>(log_settings);
    // After the tree is down (stopping it makes letters): the letters
    // suppressed since the last summary are reported, not lost.
    shutdown_.add_task(ShutdownPhase::kAfterActorSystemTerminate, "log-dead-letters-summary",
                       [this] {
                         std::optional<std::string> line;
                         {
                           std::lock_guard lock(dead_letter_logger_mutex_);
                           line = dead_letter_logger_->flush(now_ms());
                         }
                         if (line) log_.info(*line);
                       });
  }
  if (!options_.dead_letter_sink()) set_sink(queue_);

  // Appends start on arrival; these complete them: once before the tree goes
  // down, once after (stopping the tree itself makes letters).
  std::weak_ptr<DeadLetterQueue> weak = queue_;
  shutdown_.add_task(ShutdownPhase::kBeforeActorSystemTerminate, "flush-dead-letters", [weak] {
    if (auto q = weak.lock()) q->flush();
  });
  // The last one also frees the journal stream for a restart of this system.
  shutdown_.add_task(ShutdownPhase::kAfterActorSystemTerminate, "flush-dead-letters-final", [weak] {
    if (auto q = weak.lock()) q->release_journal();
  });
}

void SystemCore::publish_dead_letter(DeadLetter letter) {
  if (letter.message.is<DeadLetter>()) return;  // a dead letter about a dead letter: no loops
  if (letter.recipient_path.empty()) letter.recipient_path = letter.recipient.local_path();
  if (letter.sender_path.empty() && letter.sender) letter.sender_path = letter.sender.local_path();
  std::shared_ptr<DeadLetterSink> sink;
  {
    std::lock_guard lock(sink_mutex_);
    sink = sink_;
  }
  if (sink) sink->capture(letter);  // the record first, subscribers after
  if (dead_letter_logger_) {
    std::vector<std::string> lines;
    {
      std::lock_guard lock(dead_letter_logger_mutex_);
      lines = dead_letter_logger_->on_letter(letter, now_ms());
    }
    for (const auto& line : lines) log_.info(line);
  }
  events_->publish(Message(std::move(letter)));
}

}  // namespace mailroom::detail
