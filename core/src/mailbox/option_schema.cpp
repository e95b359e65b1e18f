#include "mailroom/option_schema.hpp"

#include "mailroom/detail/nearest_name.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

namespace {
std::string with_article(std::string_view noun) {
  // Case ignored: "an ActorOptions" as well as "an object".
  const bool vowel = !noun.empty() && std::string_view("aeiouAEIOU").find(noun[0]) != noun.npos;
  return (noun == "null" || noun == "undefined" ? "" : vowel ? "an " : "a ") + std::string(noun);
}

std::string joined(const std::vector<std::string_view>& names) {
  std::string out;
  for (std::string_view name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}
}  // namespace

std::string_view to_string(OptionType type) noexcept {
  switch (type) {
    case OptionType::kNumber:
      return "number";
    case OptionType::kString:
      return "string";
    case OptionType::kBoolean:
      return "boolean";
    case OptionType::kFunction:
      return "function";
    case OptionType::kObject:
      return "object";
  }
  return "unknown";
}

const std::vector<OptionField>& option_schema() {
  using T = OptionType;
  static const std::vector<OptionField> fields = {
      {"ActorOptions", "mailboxCapacity", T::kNumber},
      {"ActorOptions", "mailboxOverflow", T::kString},
      {"ActorOptions", "mailbox", T::kFunction},
      {"ActorOptions", "throughput", T::kNumber},
      {"ActorOptions", "className", T::kString},
      {"ActorOptions", "supervisorStrategy", T::kObject},
      {"BoundedMailbox", "capacity", T::kNumber},
      {"BoundedMailbox", "overflow", T::kString},
      {"BoundedMailbox", "deadLetterDrops", T::kBoolean},
      {"BoundedMailbox", "onDrop", T::kFunction},
      {"PriorityMailbox", "priorityFor", T::kFunction},
      {"PriorityMailbox", "capacity", T::kNumber},
      {"PriorityMailbox", "overflow", T::kString},
      {"PriorityMailbox", "deadLetterDrops", T::kBoolean},
      {"PriorityMailbox", "onDrop", T::kFunction},
      {"PriorityMailbox", "onPriorityError", T::kFunction},
      {"DeadLetterQueueOptions", "store", T::kString},
      {"DeadLetterQueueOptions", "maxEntries", T::kNumber},
      {"DeadLetterQueueOptions", "retentionMs", T::kNumber},
      {"DeadLetterQueueOptions", "maxReplays", T::kNumber},
      {"DeadLetterQueueOptions", "persistenceId", T::kString},
      {"DeadLetterQueueOptions", "syncWithinMs", T::kNumber},
      {"ActorSystemOptions", "config", T::kString},
      {"ActorSystemOptions", "metrics", T::kBoolean},
      {"ActorSystemOptions", "logLevel", T::kString},
      {"ActorSystemOptions", "logger", T::kObject},
      {"ActorSystemOptions", "journalDir", T::kString},
      {"ActorSystemOptions", "deadLetters", T::kObject},
      {"OneForOneStrategy", "decider", T::kFunction},
      {"OneForOneStrategy", "maxRetries", T::kNumber},
      {"OneForOneStrategy", "withinTimeRangeMs", T::kNumber},
      {"AllForOneStrategy", "decider", T::kFunction},
      {"AllForOneStrategy", "maxRetries", T::kNumber},
      {"AllForOneStrategy", "withinTimeRangeMs", T::kNumber},
  };
  return fields;
}

const OptionField* find_option_field(std::string_view family, std::string_view field) noexcept {
  for (const OptionField& f : option_schema()) {
    if (f.family == family && f.field == field) return &f;
  }
  return nullptr;
}

std::optional<OptionsError> unknown_option_field(std::string_view family, std::string_view field,
                                                 std::string value_text) {
  std::vector<std::string_view> known;
  for (const OptionField& f : option_schema()) {
    if (f.family != family) continue;
    if (f.field == field) return std::nullopt;
    known.push_back(f.field);
  }
  if (known.empty()) return std::nullopt;  // not a family this table describes
  const auto nearest = detail::nearest_name(field, known);
  return OptionsError(std::string(family), std::string(field), std::move(value_text),
                      "is not " + with_article(family) + " field" +
                          (nearest ? " (did you mean " + std::string(*nearest) + "?)"
                                   : " (known: " + joined(known) + ")"));
}

void check_option_field_known(std::string_view family, std::string_view field,
                              std::string value_text) {
  if (auto error = unknown_option_field(family, field, std::move(value_text))) throw *error;
}

std::optional<OptionsError> option_type_mismatch(std::string_view family, std::string_view field,
                                                 std::string_view given, std::string value_text) {
  const OptionField* f = find_option_field(family, field);
  if (f == nullptr || to_string(f->type) == given) return std::nullopt;
  return OptionsError(
      std::string(family), std::string(field), std::move(value_text),
      "must be " + with_article(to_string(f->type)) + ", got " + with_article(given));
}

void check_option_type(std::string_view family, std::string_view field, std::string_view given,
                       std::string value_text) {
  if (auto error = option_type_mismatch(family, field, given, std::move(value_text))) throw *error;
}

}  // namespace mailroom
