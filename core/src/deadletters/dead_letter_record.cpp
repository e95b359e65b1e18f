#include "dead_letter_record.hpp"

#include "mailroom/tagged_json.hpp"

#include "json_text.hpp"

namespace mailroom::detail {

std::string DeadLetterRecord::to_json() const {
  std::string out;
  const auto text = [&out](std::string_view s) { detail::append_json_string(out, s); };
  switch (kind) {
    case Kind::kCaptured: {
      out.reserve(128 + recipient_path.size() + degraded_class.size() + value_text.size() +
                  (sender_path ? sender_path->size() : 0));
      out += "{\"id\":";
      append_json_number(out, id);
      out += ",\"k\":\"captured\",\"n\":";
      append_json_number(out, std::uint64_t{replay_count});
      if (tag) {
        out += ",\"p\":{\"c\":";
        text(degraded_class);
        out += ",\"t\":";
        text(*tag);
        out += ",\"v\":";
        // Replace invalid UTF-8 rather than throw: a record must always be writable.
        out += value_text.empty()
                   ? value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
                   : value_text;
        out += '}';
      } else {
        out += ",\"p\":{\"d\":{\"c\":";
        text(degraded_class);
        out += ",\"w\":";
        text(degraded_reason);
        out += "}}";
      }
      if (drop_reason) {
        out += ",\"pol\":";
        text(to_string(*drop_reason));
      }
      out += ",\"r\":";
      text(recipient_path);
      out += ",\"s\":";
      if (sender_path) {
        text(*sender_path);
      } else {
        out += "null";
      }
      out += ",\"ts\":";
      append_json_number(out, std::int64_t{timestamp_ms});
      out += ",\"why\":";
      text(to_string(cause));
      out += '}';
      break;
    }
    case Kind::kRemoved:
      out += "{\"id\":";
      append_json_number(out, id);
      out += purged ? ",\"k\":\"removed\",\"why\":\"purged\"}" : ",\"k\":\"removed\"}";
      break;
    case Kind::kReleased:
      out += "{\"id\":";
      append_json_number(out, id);
      out += ",\"k\":\"released\"}";
      break;
    case Kind::kCleared:
      out += "{\"k\":\"cleared\"}";
      break;
    case Kind::kUnknown:
      out += "{\"k\":\"unknown\"}";
      break;
  }
  return out;
}

DeadLetterRecord DeadLetterRecord::from_json(const std::string& text) {
  const nlohmann::json j = tagged_json::parse_bounded(text);
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
