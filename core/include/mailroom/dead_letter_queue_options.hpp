// DeadLetterQueueOptions: the dead-letter knobs given in code at system
// creation. Every field is optional so that an unset one never shadows HOCON:
// resolve() picks, per field, explicit > HOCON > built-in default.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/dead_letter_store.hpp"

namespace mailroom {

class HoconConfig;

class DeadLetterQueueOptions {
 public:
  static DeadLetterQueueOptions create() { return {}; }

  // Each setter validates at once and throws
  // OptionsError{"DeadLetterQueueOptions", field, value} on a bad value.
  DeadLetterQueueOptions& with_store(std::string_view store);  // "off", "metrics", ...
  DeadLetterQueueOptions& with_store(DeadLetterStore store);
  DeadLetterQueueOptions& with_max_entries(double max_entries);             // integer >= 1
  DeadLetterQueueOptions& with_retention_ms(double retention_ms);           // >= 0, 0 = no ageing
  DeadLetterQueueOptions& with_max_replays(double max_replays);             // integer >= 0
  DeadLetterQueueOptions& with_persistence_id(std::string persistence_id);  // non-empty
  // A journal change (capture, removal, replay, release, purge, compaction)
  // is durable at most this long after it: integer 0..60000 ms.
  DeadLetterQueueOptions& with_sync_within_ms(double sync_within_ms);

  const std::optional<DeadLetterStore>& store() const noexcept { return store_; }
  const std::optional<std::size_t>& max_entries() const noexcept { return max_entries_; }
  const std::optional<std::int64_t>& retention_ms() const noexcept { return retention_ms_; }
  const std::optional<std::uint32_t>& max_replays() const noexcept { return max_replays_; }
  const std::optional<std::string>& persistence_id() const noexcept { return persistence_id_; }
  const std::optional<std::int64_t>& sync_within_ms() const noexcept { return sync_within_ms_; }

  // Reads `mailroom.dead-letters { store, max-entries, retention, max-replays,
  // persistence-id, sync-within }` (and the seed's `actor-ts.dead-letters` as an alias;
  // `mailroom.` wins) under the explicit fields. config may be null. Throws
  // OptionsError for a bad HOCON value, ConfigError (line, column) for a value
  // of the wrong type.
  DeadLetterQueueSettings resolve(const HoconConfig* config, std::string_view system_name) const;

 private:
  std::optional<DeadLetterStore> store_;
  std::optional<std::size_t> max_entries_;
  std::optional<std::int64_t> retention_ms_;
  std::optional<std::uint32_t> max_replays_;
  std::optional<std::string> persistence_id_;
  std::optional<std::int64_t> sync_within_ms_;
};

}  // namespace mailroom
