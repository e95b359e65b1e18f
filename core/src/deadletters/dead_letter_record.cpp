#include "dead_letter_record.hpp"

namespace mailroom::detail {

std::string DeadLetterRecord::to_json() const {
  nlohmann::json j;
  switch (kind) {
    case Kind::kCaptured: {
      j["k"] = "captured";
      j["id"] = id;
      j["ts"] = timestamp_ms;
      j["r"] = recipient_path;
      j["s"] = sender_path ? nlohmann::json(*sender_path) : nlohmann::json(nullptr);
      j["n"] = replay_count;
      j["why"] = std::string(to_string(cause));
      if (drop_reason) j["pol"] = std::string(to_string(*drop_reason));
      if (tag) {
        j["p"] = {{"t", *tag}, {"v", value}, {"c", degraded_class}};
      } else {
        j["p"] = {{"d", {{"c", degraded_class}, {"w", degraded_reason}}}};
      }
      break;
    }
    case Kind::kRemoved:
      j["k"] = "removed";
      j["id"] = id;
      if (purged) j["why"] = "purged";
      break;
    case Kind::kReleased:
      j["k"] = "released";
      j["id"] = id;
      break;
    case Kind::kCleared:
      j["k"] = "cleared";
      break;
    case Kind::kUnknown:
      j["k"] = "unknown";
      break;
  }
  // Replace invalid UTF-8 rather than throw: a record must always be writable.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

DeadLetterRecord DeadLetterRecord::from_json(const std::string& text) {
  const nlohmann::json j = nlohmann::json::parse(text);
  DeadLetterRecord record;
  const std::string kind = j.at("k").get<std::string>();
  if (kind == "captured") {
    record.kind = Kind::kCaptured;
    record.id = j.at("id").get<std::uint64_t>();
    record.timestamp_ms = j.at("ts").get<std::int64_t>();
    record.recipient_path = j.at("r").get<std::string>();
    if (const auto& s = j.at("s"); !s.is_null()) record.sender_path = s.get<std::string>();
    record.replay_count = j.at("n").get<std::uint32_t>();
    // Optional (added later): a record without them, or with a value this build
    // does not know, reads back as cause "unknown" rather than failing.
    if (auto why = j.find("why"); why != j.end() && why->is_string()) {
      record.cause = dead_letter_cause_from_string(why->get<std::string>())
                         .value_or(DeadLetterCause::kUnknown);
    }
    if (auto pol = j.find("pol"); pol != j.end() && pol->is_string()) {
      record.drop_reason = drop_reason_from_string(pol->get<std::string>());
    }
    const auto& p = j.at("p");
    if (p.contains("t")) {
      record.tag = p.at("t").get<std::string>();
      record.value = p.at("v");
      record.degraded_class = p.value("c", std::string());
    } else {
      record.degraded_class = p.at("d").at("c").get<std::string>();
      record.degraded_reason = p.at("d").at("w").get<std::string>();
    }
  } else if (kind == "removed") {
    record.kind = Kind::kRemoved;
    record.id = j.at("id").get<std::uint64_t>();
    auto why = j.find("why");
    record.purged = why != j.end() && why->is_string() && why->get<std::string>() == "purged";
  } else if (kind == "released") {
    record.kind = Kind::kReleased;
    record.id = j.at("id").get<std::uint64_t>();
  } else if (kind == "cleared") {
    record.kind = Kind::kCleared;
  }
  return record;
}

}  // namespace mailroom::detail
