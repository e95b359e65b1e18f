// The raw entry points wasm/js calls (registered in bindings.cpp). Numbers
// name systems, refs, actors (keys) and mailboxes; every function that can fail
// answers an error record instead of throwing (see error_records.hpp).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

namespace mailroom::wasm::api {

using emscripten::val;

void install_hooks(val hooks);
// A string setting of a HOCON document (null when absent) or an error record.
val config_string(std::string hocon, std::string path);

// ---- options ----
// { overflowPolicy: [...], dropReason, deadLetterStore, replayOutcome, directive, logLevel }
val closed_sets();
val option_schema();  // { family: { field: 'number' | 'string' | ... } }
// The core's OptionsError for a value of JS type `given` (an error status; undefined when the type
// fits).
val option_type_error(std::string family, std::string field, std::string given,
                      std::string value_text);
// { error } for a field `family` does not name (with the nearest known one), else undefined.
val option_field_error(std::string family, std::string field, std::string value_text);
// The effective values of an options record of `family`, or an error status.
val options_resolve(std::string family, val settings, std::string system_name);

// ---- systems ----
val system_create(std::string name, val settings);  // { id } | error
bool system_run_for(int system, double micros);     // true while work remains
// class_name: the class hint ("" for a factory: named once it has run).
val system_spawn(int system, std::uint32_t parent_key, val actor_class, std::string class_name,
                 std::string name, val settings);  // { id, path } | error
val system_resolve(int system, std::string path);  // { id, path } | null
val system_stop(int system, std::uint32_t ref);
val system_terminate(int system);
val system_release(int system);  // [ref ids]
val system_inspect(int system);  // { actors: [...] } | error
val system_log(int system, std::uint32_t actor_key, std::string level, std::string text);
val metrics_scrape(int system);  // { text } | error

// ---- telling ----
// The hot path is in hot_path.cpp (raw exports Module._mr_*); these are the
// slow calls around it.
val take_tell_error();                               // { error } of the last failed raw call
std::string ref_path(std::uint32_t ref);             // "" when unknown or released
val selection_intern(int system, std::string path);  // selection id | error
val ref_tell(std::uint32_t ref, val message, std::uint32_t sender, int special);
val path_tell(std::string path, val message, std::uint32_t sender, int special);
val selection_tell(int system, std::string path, val message, std::uint32_t sender, int special);
// system.deadLetters.tell(new DeadLetter(...)): tells the core's dead-letter
// office DeadLetter{message, sender, recipient}, which records it as it is. A
// ref id of 0 names a ref by its path (a ghost). Other messages told to the
// office go through ref_tell to its ref id (the core wraps them).
val dead_letters_tell(int system, val message, int special, std::uint32_t sender,
                      std::string sender_path, std::uint32_t recipient, std::string recipient_path);

// ---- event stream ----
val subscribe(int system, std::string topic, std::uint32_t ref, val handler);  // id | error
void unsubscribe(int system, double subscription);

// ---- actor context (by actor key) ----
val ctx_stash(std::uint32_t key);
val ctx_unstash_all(std::uint32_t key);
val ctx_stop(std::uint32_t key, std::uint32_t ref);
val ctx_watch(std::uint32_t key, std::uint32_t ref);
val ctx_unwatch(std::uint32_t key, std::uint32_t ref);
val ctx_parent(std::uint32_t key);    // { id, path } | null
val ctx_children(std::uint32_t key);  // [{ id, path }] | error
val ctx_unhandled(std::uint32_t key, val message);
val ctx_become(std::uint32_t key, val behaviour, bool discard_old);
val ctx_unbecome(std::uint32_t key);
void completion_settle(std::uint32_t key, bool ok, val error);

// ---- dead-letter queue ----
val dlq_list(int system, val filter);  // { entries } | error
val dlq_get(int system, std::string id);
val dlq_replay(int system, std::string id, val alternate);
val dlq_clear(int system);
val dlq_remove(int system, val ids);          // { results: [{ id, outcome }] } | error
val dlq_release(int system, std::string id);  // { kind } | error
val dlq_settings(int system);
val dlq_flush(int system);  // completes the journal appends issued so far
// Calls done("") once everything journaled so far is durable (IndexedDB
// committed), done(why) when it could not be stored.
val dlq_when_durable(int system, emscripten::val done);
// { bytes }: a whole journal file in the core's format holding these records.
val journal_encode_file(double base_sequence, emscripten::val records);

// ---- mailboxes ----
val mailbox_create(std::string kind, val settings);  // { id } | error
void mailbox_release(std::uint32_t id);
bool mailbox_alive(std::uint32_t id);
std::uint32_t mailbox_adapter_create(val instance, std::uint32_t base);
val mailbox_enqueue(std::uint32_t id, int which, val message, std::uint32_t sender, int special,
                    double replay);
val mailbox_dequeue(std::uint32_t id, int which);  // envelope record | null | { error }
val mailbox_drain(std::uint32_t id, int which);
val mailbox_prepend(std::uint32_t id, val records);
double mailbox_size(std::uint32_t id);
double mailbox_system_size(std::uint32_t id);
bool mailbox_suspended(std::uint32_t id);
val mailbox_suspend(std::uint32_t id, bool suspend);  // undefined | { error }
double mailbox_dropped_count(std::uint32_t id);
bool mailbox_dead_letter_drops(std::uint32_t id);
void mailbox_observe_drops(std::uint32_t id, val observer);
void drop_notify(std::uint32_t observer_key, std::string reason, val envelope);

}  // namespace mailroom::wasm::api
