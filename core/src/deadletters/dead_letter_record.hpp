// The persistent store's journal record format (one JSON object per record):
//   {"k":"captured","id":7,"ts":1700000000000,"r":"/user/a","s":"/user/b"|null,"n":0,
//    "p":{"t":"<tag>","v":<json>,"c":"<class>"},"why":"dropped","pol":"drop-head"}
//                                              a captured letter (or a newer state of it);
//                                              "why" (the cause) and "pol" (drop policy) are
//                                              optional: older records read back as "unknown"
//   ... "p":{"d":{"c":"<class>","w":"<why>"}}  the payload could not be encoded
//   {"k":"removed","id":7}                      tombstone: replayed
//   {"k":"removed","id":7,"why":"purged"}       tombstone: purged (remove); "why" optional
//   {"k":"released","id":7}                     quarantine lifted: replay count back to 0
//   {"k":"cleared"}                             tombstone for every entry before it
// A later "captured" record for an id replaces the earlier one (a replayed
// letter that came back). Unknown kinds are skipped when folding.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/drop_reason.hpp"

namespace mailroom::detail {

struct DeadLetterRecord {
  enum class Kind { kCaptured, kRemoved, kCleared, kReleased, kUnknown };
  Kind kind = Kind::kUnknown;
  std::uint64_t id = 0;
  std::int64_t timestamp_ms = 0;
  std::string recipient_path;
  std::optional<std::string> sender_path;
  std::uint32_t replay_count = 0;
  DeadLetterCause cause = DeadLetterCause::kUnknown;
  std::optional<DropReason> drop_reason;
  bool purged = false;  // kRemoved: removed on request rather than replayed
  // Exactly one of these for kCaptured.
  std::optional<std::string> tag;
  nlohmann::json value;
  // The value as JSON text already (the capture path: a codec's validated
  // text, written as it is); when empty, value is written. Reading fills value.
  std::string value_text;
  std::string degraded_class;  // the payload's type name (tagged or not)
  std::string degraded_reason;

  // Keys in sorted order, byte for byte what nlohmann::json::dump wrote for
  // the same record (written directly, without building a nlohmann::json).
  std::string to_json() const;
  // Throws std::exception (nlohmann parse/type errors) on a malformed record.
  static DeadLetterRecord from_json(const std::string& text);
};

}  // namespace mailroom::detail
