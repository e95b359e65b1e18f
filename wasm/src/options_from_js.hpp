// Options records from JS into the core's option builders. Every field's JS
// type is checked against the core's schema (mailroom/option_schema.hpp)
// before it is read, so no wrong-typed value ever reaches an embind
// conversion (whose TypeError would unwind through C++ frames, skipping their
// destructors: leaked handles and wasm stack). Numbers cross as doubles: the
// core decides integrality and range. A failure is the core's OptionsError.
#pragma once

#include <emscripten/val.h>

#include <optional>
#include <string>
#include <string_view>

#include "mailroom/actor_options.hpp"
#include "mailroom/actor_system_options.hpp"
#include "mailroom/bounded_mailbox_options.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/logger.hpp"
#include "mailroom/priority_mailbox_options.hpp"

namespace mailroom::wasm {

// typeof, with "null" and "array" told apart from "object".
std::string js_type_of(const emscripten::val& value);
// How a value reads as an OptionsError value (wasm/js/options.js valueText
// spells it the same way, so JS can hand back the value the user gave).
std::string js_value_text(const emscripten::val& value);

// The field's value when set (not undefined or null), its type checked.
std::optional<emscripten::val> option_field(const emscripten::val& settings,
                                            std::string_view family, const char* field);
std::optional<double> number_field(const emscripten::val& settings, std::string_view family,
                                   const char* field);
std::optional<std::string> string_field(const emscripten::val& settings, std::string_view family,
                                        const char* field);
std::optional<bool> bool_field(const emscripten::val& settings, std::string_view family,
                               const char* field);

// A JS drop observer (reason, envelope record); JS wraps it so it never throws.
DropObserver js_drop_observer(emscripten::val fn);

// log: where a failing JS decider of the actor's strategy is reported.
ActorOptions actor_options_from_js(const emscripten::val& settings, const Logger& log);
BoundedMailboxOptions bounded_options_from_js(const emscripten::val& settings);
PriorityMailboxOptions priority_options_from_js(const emscripten::val& settings);
DeadLetterQueueOptions dead_letter_options_from_js(const emscripten::val& settings);
// config, metrics, logLevel, logger, deadLetters, journalDir.
void apply_system_options(ActorSystemOptions& options, const emscripten::val& settings);

// What the core makes of an options record: the effective values (defaults
// filled in) of `family`, or the OptionsError. The same conversions as the
// real paths (spawn, create, new BoundedMailbox, strategies), for the JS
// builders' eager checks and the parity tests.
emscripten::val resolve_options_record(const std::string& family, const emscripten::val& settings,
                                       const std::string& system_name);

}  // namespace mailroom::wasm
