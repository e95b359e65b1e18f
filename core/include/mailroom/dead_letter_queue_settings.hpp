// The resolved, validated configuration of a dead-letter queue (every field
// set). Made by DeadLetterQueueOptions::resolve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "mailroom/dead_letter_store.hpp"

namespace mailroom {

struct DeadLetterQueueSettings {
  static constexpr std::size_t kDefaultMaxEntries = 1000;
  static constexpr std::int64_t kDefaultRetentionMs = 60 * 60 * 1000;  // 1 h
  static constexpr std::uint32_t kDefaultMaxReplays = 3;
  static constexpr std::int64_t kMaxSyncWithinMs = 60 * 1000;

  DeadLetterStore store = DeadLetterStore::kOff;
  std::size_t max_entries = kDefaultMaxEntries;     // >= 1
  std::int64_t retention_ms = kDefaultRetentionMs;  // 0 = no ageing
  std::uint32_t max_replays = kDefaultMaxReplays;   // 0 = never replayable
  std::string persistence_id;                       // "mailroom-dead-letters-<system>"
  // How soon a journal change is durable, 0..kMaxSyncWithinMs; unset: the
  // journal's default (Journal::default_sync_within_ms: 50 ms natively and
  // in Node, 250 ms in the browser).
  std::optional<std::int64_t> sync_within_ms;

  static std::string default_persistence_id(std::string_view system_name) {
    return "mailroom-dead-letters-" + std::string(system_name);
  }
};

}  // namespace mailroom
