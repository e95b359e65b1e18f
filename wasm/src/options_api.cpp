// Options entry points: the core's field table for the JS type checks, the
// core's error for a wrong type, and what the core makes of a record.
#include <string>

#include "api.hpp"
#include "error_records.hpp"
#include "mailroom/dead_letter_store.hpp"
#include "mailroom/directive.hpp"
#include "mailroom/drop_reason.hpp"
#include "mailroom/log_level.hpp"
#include "mailroom/option_schema.hpp"
#include "mailroom/overflow_policy.hpp"
#include "mailroom/replay_outcome.hpp"
#include "options_from_js.hpp"
#include "wire_codes.hpp"

namespace mailroom::wasm::api {

namespace {
// Every value of a closed set, in declaration order: the C++ enums are
// dense from 0 and their to_string answers "unknown" past the last one.
template <class E>
val names_of() {
  val out = val::array();
  for (int i = 0;; ++i) {
    const std::string_view name = to_string(static_cast<E>(i));
    if (name == "unknown") break;
    out.call<void>("push", std::string(name));
  }
  return out;
}
}  // namespace

val closed_sets() {
  val out = val::object();
  out.set("overflowPolicy", names_of<OverflowPolicy>());
  out.set("dropReason", names_of<DropReason>());
  out.set("deadLetterStore", names_of<DeadLetterStore>());
  out.set("replayOutcome", names_of<ReplayOutcome>());
  out.set("directive", names_of<Directive>());
  out.set("logLevel", names_of<LogLevel>());
  // The binding's own codes (index = the integer that crosses).
  out.set("specialMessage", names_of<SpecialMessage>());
  out.set("mailboxQueue", names_of<MailboxQueue>());
  return out;
}

val option_schema() {
  val out = val::object();
  for (const OptionField& f : mailroom::option_schema()) {
    const std::string family(f.family);
    if (out[family].isUndefined()) out.set(family, val::object());
    out[family].set(std::string(f.field), std::string(to_string(f.type)));
  }
  return out;
}

val option_type_error(std::string family, std::string field, std::string given,
                      std::string value_text) {
  auto error = option_type_mismatch(family, field, given, std::move(value_text));
  if (!error) return val::undefined();
  val out = val::object();
  out.set("error", options_error_record(*error));
  return out;
}

val option_field_error(std::string family, std::string field, std::string value_text) {
  auto error = unknown_option_field(family, field, std::move(value_text));
  if (!error) return val::undefined();
  val out = val::object();
  out.set("error", options_error_record(*error));
  return out;
}

val options_resolve(std::string family, val settings, std::string system_name) {
  return guarded([&] { return resolve_options_record(family, settings, system_name); });
}

}  // namespace mailroom::wasm::api
