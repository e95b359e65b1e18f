// Systems and telling, for wasm/js/actor_system.js and actor_ref.js.
#include <emscripten/emscripten.h>

#include <chrono>

#include "api.hpp"
#include "conversions.hpp"
#include "error_records.hpp"
#include "hot_path.hpp"
#include "js_actor.hpp"
#include "js_hooks.hpp"
#include "js_journal.hpp"
#include "js_supervision.hpp"
#include "js_value.hpp"
#include "mailbox_table.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/hocon_config.hpp"
#include "mailroom/metrics_registry.hpp"
#include "options_from_js.hpp"
#include "payload_codecs.hpp"
#include "ref_table.hpp"
#include "selection_table.hpp"
#include "system_registry.hpp"

// The wall clock in ms for the core (dead-letter timestamps, expiry, the
// logger's windows): one JS call. libc's system_clock goes through
// clock_gettime's emulation, 16 % of a memory-store capture.
EM_JS(double, mr_date_now, (), { return Date.now(); });

namespace mailroom::wasm::api {

namespace {

// Which system a journal sync timer belongs to (0 until it is registered).
struct SyncTimerId {
  int id = 0;
  std::int64_t early_delay_ms = -1;
};
bool has(const val& settings, const char* key) {
  return settings.typeOf().as<std::string>() == "object" && !settings.isNull() &&
         !settings[key].isUndefined() && !settings[key].isNull();
}
}  // namespace

void install_hooks(val hooks) {
  wasm::install_hooks(std::move(hooks));
}

val config_string(std::string hocon, std::string path) {
  return guarded([&] {
    auto value = HoconConfig::parse(hocon).get_string(path);
    return value ? val(*value) : val::null();
  });
}

val system_create(std::string name, val settings) {
  return guarded([&] {
    auto handle = std::make_unique<SystemHandle>();
    handle->name = name;
    handle->dispatcher = std::make_shared<HostDrivenDispatcher>();
    auto options = ActorSystemOptions::create();
    options.with_dispatcher(handle->dispatcher);
    apply_system_options(options, settings);  // type-checked by the core's schema
    if (has(settings, "journal")) {
      // The core's journal format over bytes that JS moves (node:fs).
      options.with_journal(
          std::make_shared<FileJournal>(std::make_shared<JsJournalStorage>(settings["journal"])));
    }
    options.with_payload_codecs(js_payload_codecs());
    options.with_clock([] { return static_cast<std::int64_t>(mr_date_now()); });
    // The journal's sync-within timer is JS's setTimeout; the core decides
    // when. The system's id is known once it is registered: a timer armed
    // while it is created (a restore's repair) is armed again then.
    auto timer_id = std::make_shared<SyncTimerId>();
    options.with_journal_sync_timer([timer_id](std::int64_t delay_ms) {
      if (timer_id->id == 0) {
        timer_id->early_delay_ms = delay_ms;
        return;
      }
      hooks()["armJournalSync"](timer_id->id, static_cast<double>(delay_ms));
    });
    handle->system = ActorSystem::create(name, std::move(options));
    SystemHandle& added = SystemRegistry::instance().add(std::move(handle));
    const int id = added.id;
    timer_id->id = id;
    if (timer_id->early_delay_ms >= 0) {
      hooks()["armJournalSync"](id, static_cast<double>(timer_id->early_delay_ms));
    }
    added.dispatcher->set_wake([id] { hooks()["wake"](id); });
    added.system->when_terminated([id] { hooks()["terminated"](id); });
    val out = val::object();
    out.set("id", id);
    const ActorRef office = added.system->dead_letters();
    out.set("deadLetters", ref_id(office, id));  // the office's ref id and path
    out.set("deadLettersPath", office.path());
    return out;
  });
}

bool system_run_for(int system, double micros) {
  SystemHandle* handle = SystemRegistry::instance().find(system);
  if (handle == nullptr) return false;
  // The clock is read once per chunk of messages, not after every turn: in
  // wasm a clock read is a JS call (performance.now), dearer than a
  // ping-pong turn. A chunk starts at 8 messages and doubles while one takes
  // under 1/64 of the budget (halves past 1/16), so a slice of cheap
  // messages reads the clock rarely, and one of slow messages still ends
  // within about a sixteenth of its budget (or one message) of it.
  constexpr std::size_t kFirstChunk = 8;
  constexpr std::size_t kLargestChunk = 4096;
  HostDrivenDispatcher& dispatcher = *handle->dispatcher;
  const double budget_ms = micros / 1000.0;
  double now = emscripten_get_now();
  const double deadline = now + budget_ms;
  std::size_t chunk = kFirstChunk;
  bool more = true;
  try {
    do {
      dispatcher.run_some(chunk);
      more = dispatcher.has_work();
      const double before = now;
      now = emscripten_get_now();
      const double took = now - before;
      if (took < budget_ms / 64 && chunk < kLargestChunk) {
        chunk *= 2;
      } else if (took > budget_ms / 16 && chunk > 1) {
        chunk /= 2;
      }
    } while (more && now < deadline);
  } catch (...) {
    // Failures are the core's to supervise; nothing may unwind into the event loop.
    more = dispatcher.has_work();
  }
  flush_released_slots();  // the slice's delivered messages leave the slab
  return more;
}

val system_spawn(int system, std::uint32_t parent_key, val actor_class, std::string class_name,
                 std::string name, val settings) {
  return guarded([&] {
    SystemHandle& handle = SystemRegistry::instance().get(system);
    // withClassName: the name a minifier cannot take away wins over the
    // constructor's (inspect, the panel, the class metric label).
    std::string given_name;
    if (settings.hasOwnProperty("className") && settings["className"].isString()) {
      given_name = settings["className"].as<std::string>();
    }
    ActorFactory factory = [system, actor_class, given_name]() -> std::unique_ptr<Actor> {
      return std::make_unique<JsActor>(system, actor_class, given_name);
    };
    ActorOptions options = actor_options_from_js(settings, handle.system->log());
    options.with_class_name(std::move(class_name));  // named before its first turn
    ActorRef ref =
        parent_key == 0
            ? handle.system->spawn(std::move(factory), name, std::move(options))
            : acting_actor(parent_key).ctx().spawn(std::move(factory), name, std::move(options));
    return ref_to_js(ref, system);
  });
}

val system_resolve(int system, std::string path) {
  return guarded([&] {
    auto ref = SystemRegistry::instance().get(system).system->resolve(path);
    return ref ? ref_to_js(*ref, system) : val::null();
  });
}

val system_stop(int system, std::uint32_t ref) {
  return guarded([&] { SystemRegistry::instance().get(system).system->stop(ref_from_id(ref)); });
}

val system_terminate(int system) {
  return guarded([&] { SystemRegistry::instance().get(system).system->terminate(); });
}

val system_release(int system) {
  auto handle = SystemRegistry::instance().remove(system);
  if (handle) {
    try {
      handle->system->dead_letter_queue().flush();
    } catch (...) {
      // a journal that cannot flush was already reported through the log
    }
    handle->dispatcher->set_wake([] {});
    handle->system.reset();
  }
  SelectionTable::instance().release(system);
  flush_released_slots();
  val ids = val::array();
  for (std::uint32_t id : RefTable::instance().release(system)) ids.call<void>("push", id);
  return ids;
}

val system_inspect(int system) {
  return guarded([&] {
    val actors = val::array();
    for (const ActorSnapshot& s : SystemRegistry::instance().get(system).system->inspect()) {
      val row = val::object();
      row.set("path", s.path);
      row.set("fullPath", full_path(s.path, system));
      row.set("className", s.class_name);
      row.set("mailboxKind", s.mailbox_kind);
      row.set("capacity", s.capacity ? val(static_cast<double>(*s.capacity)) : val::null());
      row.set("overflow", s.overflow ? val(*s.overflow) : val::null());
      row.set("userDepth", static_cast<double>(s.user_depth));
      row.set("systemDepth", static_cast<double>(s.system_depth));
      row.set("stashSize", static_cast<double>(s.stash_size));
      row.set("dropped", static_cast<double>(s.dropped));
      row.set("suspended", s.suspended);
      row.set("processed", static_cast<double>(s.processed));
      row.set("deadLetterDrops", s.dead_letter_drops);
      actors.call<void>("push", row);
    }
    val out = val::object();
    out.set("actors", actors);
    return out;
  });
}

val system_log(int system, std::uint32_t actor_key, std::string level, std::string text) {
  return guarded([&] {
    const LogLevel parsed = log_level_from_string(level).value_or(LogLevel::kInfo);
    if (actor_key != 0) {
      acting_actor(actor_key).logger().log(parsed, text);
    } else {
      SystemRegistry::instance().get(system).system->log().log(parsed, text);
    }
  });
}

val metrics_scrape(int system) {
  return guarded([&] {
    val out = val::object();
    out.set("text", SystemRegistry::instance().get(system).system->metrics().scrape());
    return out;
  });
}

val take_tell_error() {
  return wasm::take_tell_error();
}

std::string ref_path(std::uint32_t ref) {
  const ActorRef& found = RefTable::instance().get(ref);
  return found.valid() ? found.path() : std::string();
}

val selection_intern(int system, std::string path) {
  return guarded([&] {
    SystemHandle* handle = SystemRegistry::instance().find(system);
    if (handle == nullptr) return 0u;  // released: its selections tell nowhere
    return SelectionTable::instance().add(system, handle->system->actor_selection(path));
  });
}

val ref_tell(std::uint32_t ref, val message, std::uint32_t sender, int special) {
  return guarded([&] {
    ActorRef target = ref_from_id(ref);
    if (!target.valid()) return;  // its system was released: nowhere to go
    target.tell(message_from_js(std::move(message), special, 0), ref_from_id(sender));
  });
}

val path_tell(std::string path, val message, std::uint32_t sender, int special) {
  return guarded([&] {
    // A full path names its system; a local one names none.
    const std::string name(ActorPath::system_of(path));
    if (name.empty()) return;
    if (SystemHandle* handle = SystemRegistry::instance().find_by_name(name)) {
      handle->system->actor_selection(path).tell(message_from_js(std::move(message), special, 0),
                                                 ref_from_id(sender));
    }
  });
}

val selection_tell(int system, std::string path, val message, std::uint32_t sender, int special) {
  return guarded([&] {
    SystemHandle* handle = SystemRegistry::instance().find(system);
    if (handle == nullptr) return;  // released, as a tell to a ref of it
    handle->system->actor_selection(path).tell(message_from_js(std::move(message), special, 0),
                                               ref_from_id(sender));
  });
}

val dead_letters_tell(int system, val message, int special, std::uint32_t sender,
                      std::string sender_path, std::uint32_t recipient,
                      std::string recipient_path) {
  return guarded([&] {
    SystemHandle* handle = SystemRegistry::instance().find(system);
    if (handle == nullptr) return;  // released: nowhere to record it
    // A path of this system in its local spelling; any other path as given.
    auto local = [&](const std::string& path) {
      std::string out = ActorPath::to_local(path, handle->name);
      return out.empty() ? path : out;
    };
    DeadLetter letter;
    letter.message = message_from_js(std::move(message), special, 0);
    letter.sender = ref_from_id(sender);
    if (!letter.sender.valid() && !sender_path.empty()) letter.sender_path = local(sender_path);
    letter.recipient = ref_from_id(recipient);
    if (!letter.recipient.valid()) letter.recipient_path = local(recipient_path);
    handle->system->dead_letters().tell(Message(std::move(letter)));  // recorded as it is
  });
}

}  // namespace mailroom::wasm::api
