// Embind registrations only: every function body lives in the other units
// (api.hpp lists them). wasm/js wraps these raw entry points.
#include <emscripten/bind.h>

#include "api.hpp"
#include "js_journal.hpp"

using namespace mailroom::wasm::api;  // NOLINT: registration list only

EMSCRIPTEN_BINDINGS(mailroom) {
  using emscripten::function;
  function("installHooks", &install_hooks);
  function("configString", &config_string);
  function("closedSets", &closed_sets);
  function("optionSchema", &option_schema);
  function("optionTypeError", &option_type_error);
  function("optionFieldError", &option_field_error);
  function("optionsResolve", &options_resolve);

  function("systemCreate", &system_create);
  function("systemRunFor", &system_run_for);
  function("systemSpawn", &system_spawn);
  function("systemResolve", &system_resolve);
  function("systemStop", &system_stop);
  function("systemTerminate", &system_terminate);
  function("systemRelease", &system_release);
  function("systemInspect", &system_inspect);
  function("systemLog", &system_log);
  function("metricsScrape", &metrics_scrape);

  function("takeTellError", &take_tell_error);
  function("refPath", &ref_path);
  function("selectionIntern", &selection_intern);
  function("refTell", &ref_tell);
  function("pathTell", &path_tell);
  function("selectionTell", &selection_tell);
  function("deadLettersTell", &dead_letters_tell);

  function("subscribe", &subscribe);
  function("unsubscribe", &unsubscribe);

  function("ctxStash", &ctx_stash);
  function("ctxUnstashAll", &ctx_unstash_all);
  function("ctxStop", &ctx_stop);
  function("ctxWatch", &ctx_watch);
  function("ctxUnwatch", &ctx_unwatch);
  function("ctxParent", &ctx_parent);
  function("ctxChildren", &ctx_children);
  function("ctxUnhandled", &ctx_unhandled);
  function("ctxBecome", &ctx_become);
  function("ctxUnbecome", &ctx_unbecome);
  function("completionSettle", &completion_settle);

  function("dlqList", &dlq_list);
  function("dlqGet", &dlq_get);
  function("dlqReplay", &dlq_replay);
  function("dlqClear", &dlq_clear);
  function("dlqRemove", &dlq_remove);
  function("dlqRelease", &dlq_release);
  function("dlqSettings", &dlq_settings);
  function("dlqFlush", &dlq_flush);
  function("dlqWhenDurable", &dlq_when_durable);
  function("journalSynced", &mailroom::wasm::journal_synced);
  function("journalEncodeFile", &journal_encode_file);

  function("mailboxCreate", &mailbox_create);
  function("mailboxRelease", &mailbox_release);
  function("mailboxAlive", &mailbox_alive);
  function("mailboxAdapterCreate", &mailbox_adapter_create);
  function("mailboxEnqueue", &mailbox_enqueue);
  function("mailboxDequeue", &mailbox_dequeue);
  function("mailboxDrain", &mailbox_drain);
  function("mailboxPrepend", &mailbox_prepend);
  function("mailboxSize", &mailbox_size);
  function("mailboxSystemSize", &mailbox_system_size);
  function("mailboxSuspended", &mailbox_suspended);
  function("mailboxSuspend", &mailbox_suspend);
  function("mailboxDroppedCount", &mailbox_dropped_count);
  function("mailboxDeadLetterDrops", &mailbox_dead_letter_drops);
  function("mailboxObserveDrops", &mailbox_observe_drops);
  function("dropNotify", &drop_notify);
}
