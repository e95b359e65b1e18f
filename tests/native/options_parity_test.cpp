// The options parity table (tests/parity/options_cases.json) through the core's
// C++ front door: JSON types checked against the core's field table, then the
// typed builders, then resolve/validate. tests/js/options_parity.test.mjs runs
// the same cases through the JS API; both must reach the same outcome.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/bounded_mailbox_options.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/log_level_setting.hpp"
#include "mailroom/option_number.hpp"
#include "mailroom/option_schema.hpp"
#include "mailroom/priority_mailbox_options.hpp"
#include "mailroom/supervisor_strategy.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

using json = nlohmann::json;

const json& cases() {
  static const json parsed = json::parse(
#include "options_cases.inc"
  );
  return parsed["cases"];
}

bool is_function(const json& v) {
  return v.is_object() && v.contains("$function");
}
bool is_special_number(const json& v) {
  return v.is_object() && v.contains("$number");
}

double number(const json& v) {
  if (is_special_number(v)) {
    const std::string s = v["$number"];
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    return s == "Infinity" ? std::numeric_limits<double>::infinity()
                           : -std::numeric_limits<double>::infinity();
  }
  return v.get<double>();
}

// The JS typeof of a case value (as the JS test hands it to the API).
std::string js_type(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_number() || is_special_number(v)) return "number";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "boolean";
  if (is_function(v)) return "function";
  if (v.is_array()) return "array";
  return "object";
}

// As js_value_text in wasm/src/options_from_js.cpp.
std::string value_text(const json& v) {
  const std::string type = js_type(v);
  if (type == "number") return option_number_text(number(v));
  if (type == "string") return v.get<std::string>();
  if (type == "boolean") return v.get<bool>() ? "true" : "false";
  if (type == "null") return "null";
  if (type == "array" || type == "object") return "an " + type;
  return "a " + type;
}

bool has(const json& input, const char* field) {
  return input.contains(field) && !input[field].is_null();
}

// A field the family does not name first (refused, "did you mean ...?"), then
// every field's type, in the core's table order (types before values).
void check_types(const std::string& family, const json& input) {
  for (const auto& [field, value] : input.items()) {
    if (!value.is_null()) check_option_field_known(family, field, value_text(value));
  }
  for (const OptionField& f : option_schema()) {
    if (f.family != family) continue;
    const std::string field(f.field);
    if (has(input, field.c_str())) {
      check_option_type(family, field, js_type(input[field]), value_text(input[field]));
    }
  }
}

json actor_options(const json& in) {
  check_types("ActorOptions", in);
  auto o = ActorOptions::create();
  if (has(in, "mailboxCapacity")) o.with_mailbox_capacity(number(in["mailboxCapacity"]));
  if (has(in, "mailboxOverflow")) {
    o.with_mailbox_overflow(std::string_view(in["mailboxOverflow"].get<std::string>()));
  }
  if (has(in, "mailbox")) o.with_mailbox([] { return std::make_shared<UnboundedMailbox>(); });
  if (has(in, "throughput")) o.with_throughput(number(in["throughput"]));
  o.validate();
  json out;
  out["mailboxCapacity"] = o.mailbox_capacity() ? json(*o.mailbox_capacity()) : json(nullptr);
  const auto overflow = o.effective_mailbox_overflow();
  out["mailboxOverflow"] = overflow ? json(std::string(to_string(*overflow))) : json(nullptr);
  out["throughput"] = o.throughput();
  return out;
}

json bounded(const json& in) {
  check_types("BoundedMailbox", in);
  auto o = BoundedMailboxOptions::create();
  if (has(in, "capacity")) o.with_capacity(number(in["capacity"]));
  if (has(in, "overflow")) o.with_overflow(in["overflow"].get<std::string>());
  if (has(in, "deadLetterDrops")) o.with_dead_letter_drops(in["deadLetterDrops"].get<bool>());
  const auto r = o.resolve();
  return {{"capacity", r.capacity},
          {"overflow", std::string(to_string(r.overflow))},
          {"deadLetterDrops", r.dead_letter_drops}};
}

json priority(const json& in) {
  check_types("PriorityMailbox", in);
  auto o = PriorityMailboxOptions::create();
  if (has(in, "priorityFor")) o.with_priority_for([](const Envelope&) { return 0.0; });
  if (has(in, "capacity")) o.with_capacity(number(in["capacity"]));
  if (has(in, "overflow")) o.with_overflow(in["overflow"].get<std::string>());
  if (has(in, "deadLetterDrops")) o.with_dead_letter_drops(in["deadLetterDrops"].get<bool>());
  const auto r = o.resolve();
  return {{"capacity", r.capacity ? json(*r.capacity) : json(nullptr)},
          {"overflow", r.overflow ? json(std::string(to_string(*r.overflow))) : json(nullptr)},
          {"deadLetterDrops", r.dead_letter_drops}};
}

DeadLetterQueueOptions queue_options(const json& in) {
  check_types("DeadLetterQueueOptions", in);
  auto o = DeadLetterQueueOptions::create();
  if (has(in, "store")) o.with_store(in["store"].get<std::string>());
  if (has(in, "maxEntries")) o.with_max_entries(number(in["maxEntries"]));
  if (has(in, "retentionMs")) o.with_retention_ms(number(in["retentionMs"]));
  if (has(in, "maxReplays")) o.with_max_replays(number(in["maxReplays"]));
  if (has(in, "persistenceId")) o.with_persistence_id(in["persistenceId"].get<std::string>());
  return o;
}

json settings_json(const DeadLetterQueueSettings& s) {
  return {{"store", std::string(to_string(s.store))},
          {"maxEntries", s.max_entries},
          {"retentionMs", s.retention_ms},
          {"maxReplays", s.max_replays},
          {"persistenceId", s.persistence_id}};
}

json system_options(const json& in) {
  check_types("ActorSystemOptions", in);
  if (has(in, "deadLetters")) check_types("DeadLetterQueueOptions", in["deadLetters"]);
  ActorSystemOptions o;
  if (has(in, "config")) o.with_config(in["config"].get<std::string>());
  if (has(in, "metrics")) o.with_metrics(in["metrics"].get<bool>());
  if (has(in, "logLevel")) o.with_log_level(std::string_view(in["logLevel"].get<std::string>()));
  if (has(in, "deadLetters")) o.with_dead_letters(queue_options(in["deadLetters"]));
  const HoconConfig config = o.config() ? HoconConfig::parse(*o.config()) : HoconConfig();
  const LogLevelSetting level = LogLevelSetting::resolve(o.log_level(), &config);
  return {{"metrics", o.metrics()},
          {"logLevel", std::string(to_string(level.level))},
          {"logLevelWarning", !level.warning.empty()},
          {"deadLetters", settings_json(o.dead_letters().resolve(&config, "parity"))}};
}

json strategy(const std::string& family, const json& in) {
  check_types(family, in);
  const auto s = SupervisorStrategy::one_for_one(
      {}, has(in, "maxRetries") ? number(in["maxRetries"]) : -1,
      has(in, "withinTimeRangeMs") ? number(in["withinTimeRangeMs"]) : 0, family);
  return {{"maxRetries", s.max_retries() ? *s.max_retries() : -1},
          {"withinTimeRangeMs", s.within_ms()}};
}

json run(const std::string& family, const json& in) {
  if (family == "ActorOptions") return actor_options(in);
  if (family == "BoundedMailbox") return bounded(in);
  if (family == "PriorityMailbox") return priority(in);
  if (family == "DeadLetterQueueOptions")
    return settings_json(queue_options(in).resolve(nullptr, "parity"));
  if (family == "ActorSystemOptions") return system_options(in);
  return strategy(family, in);
}

// The value text an expected error names: explicit, else the input's value
// of that field (in the nested object for a nested family), else unset.
std::string expected_value(const json& c) {
  const json& error = c["error"];
  if (error.contains("value")) return error["value"];
  const std::string field = error["field"];
  const json* input = &c["input"];
  if (error.contains("family") && error["family"] != c["family"]) input = &(*input)["deadLetters"];
  return has(*input, field.c_str()) ? value_text((*input)[field]) : "(unset)";
}

// Each case of the table reaches its outcome through the C++ builders.
TEST(OptionsParity, EveryCaseReachesItsOutcomeNatively) {
  ASSERT_GT(cases().size(), 50u);
  for (const json& c : cases()) {
    const std::string family = c["family"];
    SCOPED_TRACE(c.dump());
    if (c.contains("ok")) {
      json got;
      ASSERT_NO_THROW(got = run(family, c["input"]));
      EXPECT_EQ(got, c["ok"]);
      continue;
    }
    try {
      run(family, c["input"]);
      ADD_FAILURE() << "no OptionsError";
    } catch (const OptionsError& e) {
      EXPECT_EQ(e.family(), c["error"].value("family", family));
      EXPECT_EQ(e.field(), c["error"]["field"].get<std::string>());
      EXPECT_EQ(e.value(), expected_value(c));
    }
  }
}

// Every family the table tests is in the core's field table, and every
// family in the field table has cases (a new family cannot skip parity).
TEST(OptionsParity, TheTableCoversEveryFamilyOfTheSchema) {
  std::set<std::string> tested, known;
  for (const json& c : cases()) tested.insert(c["family"].get<std::string>());
  for (const OptionField& f : option_schema()) known.insert(std::string(f.family));
  known.erase("AllForOneStrategy");  // refused as a whole in JS (no all-for-one scope)
  EXPECT_EQ(tested, known);
}

}  // namespace
}  // namespace mailroom
