#include "mailroom/dead_letter_queue_options.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "mailroom/detail/nearest_name.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/option_number.hpp"

namespace mailroom {
namespace {

constexpr const char* kFamily = "DeadLetterQueueOptions";

std::string number_text(double value) {
  return option_number_text(value);
}

[[noreturn]] void fail(const char* field, std::string value, const char* why) {
  throw OptionsError(kFamily, field, std::move(value), why);
}

DeadLetterStore parse_store(std::string_view text) {
  if (auto store = dead_letter_store_from_string(text)) return *store;
  fail("store", std::string(text), "must be one of off, metrics, memory, persistent");
}

bool is_integer(double value) {
  return std::isfinite(value) && std::floor(value) == value;
}

std::size_t parse_max_entries(double value, const std::string& text) {
  // A ring wasm32 cannot index is refused on every target, never truncated.
  if (!is_integer(value) || value < 1 || value > kMaxOptionCount) {
    fail("maxEntries", text, "must be an integer >= 1 and at most 4294967295");
  }
  return static_cast<std::size_t>(value);
}

std::int64_t parse_retention(double value, const std::string& text) {
  if (!is_integer(value) || value < 0 || value > 9007199254740991.0) {
    fail("retentionMs", text, "must be an integer number of milliseconds >= 0 (0 = no ageing)");
  }
  return static_cast<std::int64_t>(value);
}

std::uint32_t parse_max_replays(double value, const std::string& text) {
  if (!is_integer(value) || value < 0 ||
      value > static_cast<double>(std::numeric_limits<std::uint32_t>::max())) {
    fail("maxReplays", text, "must be an integer >= 0 (0 = never replayable)");
  }
  return static_cast<std::uint32_t>(value);
}

std::int64_t parse_sync_within(double value, const std::string& text) {
  if (!is_integer(value) || value < 0 ||
      value > static_cast<double>(DeadLetterQueueSettings::kMaxSyncWithinMs)) {
    fail("syncWithinMs", text, "must be an integer number of milliseconds from 0 to 60000");
  }
  return static_cast<std::int64_t>(value);
}

// The seed spells the block `actor-ts.dead-letters`; ours is `mailroom.`,
// which wins when both name a key.
std::string hocon_path(const HoconConfig& config, std::string_view key) {
  std::string ours = "mailroom.dead-letters." + std::string(key);
  if (config.has(ours)) return ours;
  std::string seed = "actor-ts.dead-letters." + std::string(key);
  if (config.has(seed)) return seed;
  return {};
}

// Every key of the block must be one of these: a misspelled key (stor) would
// otherwise leave the setting it meant at its default without a word.
// `mailroom = 5` or `mailroom.dead-letters = 5` is no block at all: read key
// by key, every setting would silently keep its default.
void check_is_block(const HoconConfig& config, const std::string& path) {
  const HoconValue* value = config.find(path);
  if (value == nullptr || value->is_null() || value->is_object()) return;
  throw ConfigError(path + ": expected an object (a block of settings), got " +
                        (value->is_string() ? "the string \"" + value->to_text() + "\""
                                            : "the value " + value->to_text()),
                    value->line(), value->column());
}

void check_block_keys(const HoconConfig& config, const char* block) {
  static const std::vector<std::string_view> known = {
      "store", "max-entries", "retention", "max-replays", "persistence-id", "sync-within"};
  const std::string path(block);
  check_is_block(config, path.substr(0, path.find('.')));  // "mailroom", "actor-ts"
  check_is_block(config, path);
  const HoconValue* value = config.find(block);
  if (value == nullptr || !value->is_object()) return;
  const auto& fields = *std::get<std::shared_ptr<HoconObject>>(value->storage());
  for (const auto& [key, field] : fields) {
    if (std::find(known.begin(), known.end(), key) != known.end()) continue;
    const auto nearest = detail::nearest_name(key, known);
    throw OptionsError(kFamily, std::string(block) + "." + key, field.to_text(),
                       "is not a key of " + std::string(block) + " (line " +
                           std::to_string(field.line()) + ")" +
                           (nearest ? "; did you mean " + std::string(*nearest) + "?"
                                    : "; known: store, max-entries, retention, max-replays, "
                                      "persistence-id, sync-within"));
  }
}

std::string hocon_text(const HoconConfig& config, const std::string& path) {
  const HoconValue* value = config.find(path);
  return value != nullptr ? value->to_text() : std::string();
}

}  // namespace

DeadLetterQueueOptions& DeadLetterQueueOptions::with_store(std::string_view store) {
  store_ = parse_store(store);
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_store(DeadLetterStore store) {
  store_ = parse_store(to_string(store));  // rejects an out-of-range enum value too
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_max_entries(double max_entries) {
  max_entries_ = parse_max_entries(max_entries, number_text(max_entries));
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_retention_ms(double retention_ms) {
  retention_ms_ = parse_retention(retention_ms, number_text(retention_ms));
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_max_replays(double max_replays) {
  max_replays_ = parse_max_replays(max_replays, number_text(max_replays));
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_persistence_id(std::string persistence_id) {
  if (persistence_id.empty()) fail("persistenceId", "", "must not be empty");
  persistence_id_ = std::move(persistence_id);
  return *this;
}

DeadLetterQueueOptions& DeadLetterQueueOptions::with_sync_within_ms(double sync_within_ms) {
  sync_within_ms_ = parse_sync_within(sync_within_ms, number_text(sync_within_ms));
  return *this;
}

DeadLetterQueueSettings DeadLetterQueueOptions::resolve(const HoconConfig* config,
                                                        std::string_view system_name) const {
  DeadLetterQueueSettings settings;
  settings.persistence_id = DeadLetterQueueSettings::default_persistence_id(system_name);

  if (config != nullptr) {
    check_block_keys(*config, "mailroom.dead-letters");
    check_block_keys(*config, "actor-ts.dead-letters");
    if (auto path = hocon_path(*config, "store"); !path.empty()) {
      settings.store = parse_store(*config->get_string(path));
    }
    if (auto path = hocon_path(*config, "max-entries"); !path.empty()) {
      settings.max_entries =
          parse_max_entries(*config->get_number(path), hocon_text(*config, path));
    }
    if (auto path = hocon_path(*config, "retention"); !path.empty()) {
      auto ms = *config->get_duration_ms(path);
      settings.retention_ms = parse_retention(static_cast<double>(ms), hocon_text(*config, path));
    }
    if (auto path = hocon_path(*config, "max-replays"); !path.empty()) {
      settings.max_replays =
          parse_max_replays(*config->get_number(path), hocon_text(*config, path));
    }
    if (auto path = hocon_path(*config, "persistence-id"); !path.empty()) {
      const auto id = *config->get_string(path);
      if (id.empty()) {  // as with_persistence_id(""): leaving the key out keeps the default
        const HoconValue* value = config->find(path);
        throw ConfigError(path + ": must not be empty (leave it out for the default)",
                          value->line(), value->column());
      }
      settings.persistence_id = id;
    }
    if (auto path = hocon_path(*config, "sync-within"); !path.empty()) {
      const auto ms = *config->get_duration_ms(path);
      settings.sync_within_ms =
          parse_sync_within(static_cast<double>(ms), hocon_text(*config, path));
    }
  }

  if (store_) settings.store = *store_;
  if (max_entries_) settings.max_entries = *max_entries_;
  if (retention_ms_) settings.retention_ms = *retention_ms_;
  if (max_replays_) settings.max_replays = *max_replays_;
  if (persistence_id_) settings.persistence_id = *persistence_id_;
  if (sync_within_ms_) settings.sync_within_ms = *sync_within_ms_;
  return settings;
}

}  // namespace mailroom
