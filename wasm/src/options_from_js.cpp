#include "options_from_js.hpp"

#include <cmath>

#include "conversions.hpp"
#include "js_hooks.hpp"
#include "js_priority.hpp"
#include "js_supervision.hpp"
#include "mailbox_table.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/log_level_setting.hpp"
#include "mailroom/option_number.hpp"
#include "mailroom/option_schema.hpp"

namespace mailroom::wasm {

using emscripten::val;

std::string js_type_of(const val& value) {
  if (value.isNull()) return "null";
  if (value.isArray()) return "array";
  return value.typeOf().as<std::string>();
}

std::string js_value_text(const val& value) {
  const std::string type = js_type_of(value);
  if (type == "number") return option_number_text(value.as<double>());
  if (type == "string") return value.as<std::string>();
  if (type == "boolean") return value.isTrue() ? "true" : "false";
  if (type == "null" || type == "undefined") return type;
  // Never calls user code (a toString that throws would unwind through us).
  if (type == "array" || type == "object") return "an " + type;
  return "a " + type;
}

DropObserver js_drop_observer(val fn) {
  return [fn = std::move(fn)](DropReason reason, const Envelope& envelope) {
    fn(std::string(to_string(reason)), envelope_to_js(envelope, 0));
  };
}

std::optional<val> option_field(const val& settings, std::string_view family, const char* field) {
  if (js_type_of(settings) != "object") return std::nullopt;
  val value = settings[field];
  if (value.isUndefined() || value.isNull()) return std::nullopt;
  check_option_type(family, field, js_type_of(value), js_value_text(value));
  return value;
}

namespace {
// A key the family does not name is the core's OptionsError ("did you mean
// ...?"), never ignored; undefined and null count as unset.
void check_record_keys(const val& settings, std::string_view family) {
  if (js_type_of(settings) != "object") return;
  const val keys = val::global("Object").call<val>("keys", settings);
  const int n = keys["length"].as<int>();
  for (int i = 0; i < n; ++i) {
    const std::string key = keys[i].as<std::string>();
    const val value = settings[key];
    if (value.isUndefined() || value.isNull()) continue;
    check_option_field_known(family, key, js_value_text(value));
  }
}
}  // namespace

std::optional<double> number_field(const val& settings, std::string_view family,
                                   const char* field) {
  auto value = option_field(settings, family, field);
  return value ? std::optional<double>(value->as<double>()) : std::nullopt;
}

std::optional<std::string> string_field(const val& settings, std::string_view family,
                                        const char* field) {
  auto value = option_field(settings, family, field);
  return value ? std::optional<std::string>(value->as<std::string>()) : std::nullopt;
}

std::optional<bool> bool_field(const val& settings, std::string_view family, const char* field) {
  auto value = option_field(settings, family, field);
  return value ? std::optional<bool>(value->isTrue()) : std::nullopt;
}

namespace {

constexpr const char* kActor = "ActorOptions";
constexpr const char* kBounded = "BoundedMailbox";
constexpr const char* kPriority = "PriorityMailbox";
constexpr const char* kQueue = "DeadLetterQueueOptions";
constexpr const char* kSystem = "ActorSystemOptions";

// The JS withMailbox factory as a core MailboxFactory: hooks.mailboxFromFactory
// calls it and answers the id of the core mailbox (or adapter) to use.
MailboxFactory js_mailbox_factory(val factory) {
  return [factory = std::move(factory)]() -> std::shared_ptr<MessageQueue> {
    val result = hooks()["mailboxFromFactory"](factory);
    if (threw(result)) rethrow_js(result["thrown"]);
    if (result.hasOwnProperty("error")) {
      val e = result["error"];
      throw OptionsError(e["family"].as<std::string>(), e["field"].as<std::string>(),
                         e["value"].as<std::string>(), e["message"].as<std::string>());
    }
    return MailboxTable::instance().take(result["id"].as<std::uint32_t>());
  };
}

val or_null(const std::optional<double>& value) {
  return value ? val(*value) : val::null();
}

val queue_settings_to_js(const DeadLetterQueueSettings& s) {
  val out = val::object();
  out.set("store", std::string(to_string(s.store)));
  out.set("maxEntries", static_cast<double>(s.max_entries));
  out.set("retentionMs", static_cast<double>(s.retention_ms));
  out.set("maxReplays", static_cast<double>(s.max_replays));
  out.set("persistenceId", s.persistence_id);
  // Unset: the journal's default, known once a journal is chosen (dlqSettings).
  if (s.sync_within_ms) out.set("syncWithinMs", static_cast<double>(*s.sync_within_ms));
  return out;
}

}  // namespace

ActorOptions actor_options_from_js(const val& s, const Logger& log) {
  check_record_keys(s, kActor);
  auto options = ActorOptions::create();
  if (auto n = number_field(s, kActor, "mailboxCapacity")) options.with_mailbox_capacity(*n);
  if (auto p = string_field(s, kActor, "mailboxOverflow")) {
    options.with_mailbox_overflow(std::string_view(*p));
  }
  if (auto f = option_field(s, kActor, "mailbox")) options.with_mailbox(js_mailbox_factory(*f));
  if (auto n = number_field(s, kActor, "throughput")) options.with_throughput(*n);
  if (auto record = option_field(s, kActor, "supervisorStrategy")) {
    options.with_supervisor_strategy(record->operator[]("default").isTrue()
                                         ? SupervisorStrategy()
                                         : strategy_from_js(*record, log));
  }
  return options;
}

BoundedMailboxOptions bounded_options_from_js(const val& s) {
  check_record_keys(s, kBounded);
  auto options = BoundedMailboxOptions::create();
  if (auto n = number_field(s, kBounded, "capacity")) options.with_capacity(*n);
  if (auto p = string_field(s, kBounded, "overflow")) options.with_overflow(*p);
  if (auto b = bool_field(s, kBounded, "deadLetterDrops")) options.with_dead_letter_drops(*b);
  if (auto f = option_field(s, kBounded, "onDrop")) options.with_on_drop(js_drop_observer(*f));
  return options;
}

PriorityMailboxOptions priority_options_from_js(const val& s) {
  check_record_keys(s, kPriority);
  auto options = PriorityMailboxOptions::create();
  if (auto f = option_field(s, kPriority, "priorityFor")) {
    // The JS side returns NaN for a throw or a non-number: the core ranks it.
    options.with_priority_for(js_priority_for(*f));  // one JS call per message, by slot
  }
  if (auto n = number_field(s, kPriority, "capacity")) options.with_capacity(*n);
  if (auto p = string_field(s, kPriority, "overflow")) options.with_overflow(*p);
  if (auto b = bool_field(s, kPriority, "deadLetterDrops")) options.with_dead_letter_drops(*b);
  return options;
}

DeadLetterQueueOptions dead_letter_options_from_js(const val& s) {
  check_record_keys(s, kQueue);
  auto options = DeadLetterQueueOptions::create();
  if (auto v = string_field(s, kQueue, "store")) options.with_store(*v);
  if (auto n = number_field(s, kQueue, "maxEntries")) options.with_max_entries(*n);
  if (auto n = number_field(s, kQueue, "retentionMs")) options.with_retention_ms(*n);
  if (auto n = number_field(s, kQueue, "maxReplays")) options.with_max_replays(*n);
  if (auto v = string_field(s, kQueue, "persistenceId")) options.with_persistence_id(*v);
  if (auto n = number_field(s, kQueue, "syncWithinMs")) options.with_sync_within_ms(*n);
  return options;
}

void apply_system_options(ActorSystemOptions& options, const val& s) {
  if (auto v = string_field(s, kSystem, "config")) options.with_config(*v);
  if (auto b = bool_field(s, kSystem, "metrics")) options.with_metrics(*b);
  if (auto v = string_field(s, kSystem, "logLevel")) options.with_log_level(std::string_view(*v));
  if (auto logger = option_field(s, kSystem, "logger")) {
    // The JS logger object: hooks.log calls its method for the level.
    options.with_log_sink([logger = *logger](const LogEvent& event) {
      hooks()["log"](logger, std::string(to_string(event.level)), event.source, event.message,
                     static_cast<double>(event.timestamp_ms));
    });
  }
  if (auto v = string_field(s, kSystem, "journalDir")) options.with_journal_dir(*v);
  if (auto d = option_field(s, kSystem, "deadLetters")) {
    options.with_dead_letters(dead_letter_options_from_js(*d));
  }
}

val resolve_options_record(const std::string& family, const val& s,
                           const std::string& system_name) {
  val out = val::object();
  if (family == kActor) {
    const ActorOptions options = actor_options_from_js(s, Logger());
    options.validate();
    const auto& capacity = options.mailbox_capacity();
    out.set("mailboxCapacity", capacity ? val(static_cast<double>(*capacity)) : val::null());
    const auto overflow = options.effective_mailbox_overflow();
    out.set("mailboxOverflow", overflow ? val(std::string(to_string(*overflow))) : val::null());
    out.set("throughput", static_cast<double>(options.throughput()));
  } else if (family == kBounded) {
    const auto r = bounded_options_from_js(s).resolve();
    out.set("capacity", static_cast<double>(r.capacity));
    out.set("overflow", std::string(to_string(r.overflow)));
    out.set("deadLetterDrops", r.dead_letter_drops);
  } else if (family == kPriority) {
    const auto r = priority_options_from_js(s).resolve();
    out.set("capacity", or_null(r.capacity ? std::optional<double>(static_cast<double>(*r.capacity))
                                           : std::nullopt));
    out.set("overflow", r.overflow ? val(std::string(to_string(*r.overflow))) : val::null());
    out.set("deadLetterDrops", r.dead_letter_drops);
  } else if (family == kQueue) {
    out = queue_settings_to_js(dead_letter_options_from_js(s).resolve(nullptr, system_name));
  } else if (family == kSystem) {
    ActorSystemOptions options;
    apply_system_options(options, s);
    const HoconConfig config =
        options.config() ? HoconConfig::parse(*options.config()) : HoconConfig();
    const LogLevelSetting level = LogLevelSetting::resolve(options.log_level(), &config);
    out.set("metrics", options.metrics());
    out.set("logLevel", std::string(to_string(level.level)));
    out.set("logLevelWarning", level.warning);
    out.set("deadLetters",
            queue_settings_to_js(options.dead_letters().resolve(&config, system_name)));
  } else if (family == "OneForOneStrategy" || family == "AllForOneStrategy") {
    const double retries = number_field(s, family, "maxRetries").value_or(-1);
    const double within = number_field(s, family, "withinTimeRangeMs").value_or(0);
    const SupervisorStrategy strategy =
        SupervisorStrategy::one_for_one({}, retries, within, family);
    out.set("maxRetries",
            strategy.max_retries() ? static_cast<double>(*strategy.max_retries()) : -1.0);
    out.set("withinTimeRangeMs", static_cast<double>(strategy.within_ms()));
  } else {
    throw std::invalid_argument("no options family named " + family);
  }
  return out;
}

}  // namespace mailroom::wasm
