#include "error_records.hpp"

#include <string>

#include "js_hooks.hpp"
#include "mailroom/actor_initialization_error.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/journal_locked_error.hpp"

namespace mailroom::wasm {

using emscripten::val;

namespace {
val record(const char* type, const std::exception& e) {
  val out = val::object();
  out.set("type", std::string(type));
  out.set("message", std::string(e.what()));
  return out;
}
}  // namespace

val options_error_record(const OptionsError& e) {
  val out = record("OptionsError", e);
  out.set("family", e.family());
  out.set("field", e.field());
  out.set("value", e.value());
  return out;
}

val error_record(std::exception_ptr error) {
  try {
    std::rethrow_exception(error);
  } catch (const JsError& e) {
    val out = val::object();
    out.set("type", std::string("js"));
    out.set("message", std::string(e.what()));
    out.set("value", e.value());
    return out;
  } catch (const ActorInitializationError& e) {
    // What the user's constructor or hook threw matters more than the wrapper.
    if (e.cause()) return error_record(e.cause());
    return record("Error", e);
  } catch (const OptionsError& e) {
    return options_error_record(e);
  } catch (const MailboxFullError& e) {
    val out = record("MailboxFullError", e);
    out.set("path", e.path());
    out.set("capacity", static_cast<double>(e.capacity()));
    return out;
  } catch (const ConfigError& e) {
    val out = record("ConfigError", e);
    out.set("line", e.line());
    out.set("column", e.column());
    return out;
  } catch (const StashOverflowError& e) {
    return record("StashOverflowError", e);
  } catch (const InvalidActorNameError& e) {
    return record("InvalidActorNameError", e);
  } catch (const IllegalStateError& e) {
    return record("IllegalStateError", e);
  } catch (const ActorKilledError& e) {
    return record("ActorKilledError", e);
  } catch (const JournalCorruptionError& e) {
    return record("JournalCorruptionError", e);
  } catch (const JournalLockedError& e) {
    val out = record("JournalLockedError", e);
    out.set("stream", e.stream());
    out.set("location", e.location());
    return out;
  } catch (const std::exception& e) {
    return record("Error", e);
  } catch (...) {
    val out = val::object();
    out.set("type", std::string("Error"));
    out.set("message", std::string("unknown C++ exception"));
    return out;
  }
}

val error_status(std::exception_ptr error) {
  val out = val::object();
  out.set("error", error_record(error));
  return out;
}

val error_to_js(std::exception_ptr error) {
  if (!error) return val::undefined();
  return hooks()["coreError"](error_record(error));
}

val failure_to_js(std::exception_ptr error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const ActorInitializationError& e) {
    std::string message = e.what();
    // The C++ name of a JS error's carrier says nothing to a JS reader.
    static const std::string kCarrier = "mailroom::wasm::JsError: ";
    if (auto at = message.find(kCarrier); at != std::string::npos)
      message.erase(at, kCarrier.size());
    val out = val::object();
    out.set("type", std::string("ActorInitializationError"));
    out.set("message", message);
    if (e.cause()) out.set("cause", error_record(e.cause()));
    return hooks()["coreError"](out);
  } catch (...) {
  }
  return error_to_js(error);
}

}  // namespace mailroom::wasm
