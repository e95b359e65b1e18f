#include "js_actor.hpp"

#include <unordered_map>

#include "conversions.hpp"
#include "error_records.hpp"
#include "js_hooks.hpp"
#include "js_supervision.hpp"
#include "js_value.hpp"
#include "mailroom/deferred_start.hpp"
#include "mailroom/errors.hpp"

namespace mailroom::wasm {

using emscripten::val;

namespace {
std::unordered_map<std::uint32_t, JsActor*>& actors() {
  static std::unordered_map<std::uint32_t, JsActor*> table;
  return table;
}
std::uint32_t next_key = 1;

std::unordered_map<std::uint32_t, Completion>& completions() {
  static std::unordered_map<std::uint32_t, Completion> table;
  return table;
}
std::uint32_t next_completion = 1;
}  // namespace

JsActor::JsActor(int system_id, val actor_class)
    : system_id_(system_id), key_(next_key++), instance_(val::undefined()) {
  actors().emplace(key_, this);
  const ActorRef& me = self();
  val result =
      hooks()["constructActor"](system_id_, key_, actor_class, ref_id(me, system_id_), me.path());
  if (threw(result)) {
    actors().erase(key_);
    rethrow_js(result["thrown"]);
  }
  instance_ = result["instance"];
  class_name_ = result["className"].as<std::string>();
}

JsActor::~JsActor() {
  actors().erase(key_);
}

JsActor* JsActor::find(std::uint32_t key) {
  auto it = actors().find(key);
  return it == actors().end() ? nullptr : it->second;
}

void JsActor::invoke(const char* hook, val a, val b, Hold hold) {
  const ActorRef& from = sender();
  val result = hooks()["invokeActor"](instance_, std::string(hook), a, b, ref_id(from, system_id_),
                                      from.valid() ? from.path() : std::string());
  if (result.isUndefined()) return;
  if (threw(result)) rethrow_js(result["thrown"]);
  if (result.hasOwnProperty("promise")) {
    // receive, preStart and postRestart hold their actor until the promise
    // settles; postStop's and preRestart's promises are only watched.
    std::uint32_t key = 0;
    if (hold == Hold::kReceive) key = park_completion(context().defer());
    if (hold == Hold::kStart) key = park_completion(defer_start(context()));
    hooks()["awaitHook"](instance_, result["promise"], key);
  }
}

void JsActor::receive(const Message& message) {
  run_receive(val::undefined(), message);
}

SupervisorStrategy JsActor::supervisor_strategy() const {
  val record = hooks()["strategyOf"](instance_);
  if (record.isNull() || record.isUndefined()) return Actor::supervisor_strategy();
  if (threw(record)) {
    // As a throwing decider: reported, and the failure escalates.
    log().error("supervisorStrategy() threw (escalating): " +
                std::string(JsError(record["thrown"]).what()));
    return SupervisorStrategy::escalating();
  }
  return strategy_from_js(record, log());
}

void JsActor::become_js(val behaviour, bool discard_old) {
  // The cell clears its behaviours before it destroys this actor, so `this` outlives them.
  context().become(
      [this, behaviour = std::move(behaviour)](const Message& m) { run_receive(behaviour, m); },
      discard_old);
}

void JsActor::run_receive(const val& behaviour, const Message& message) {
  current_ = &message;
  try {
    invoke("receive", message_to_js(message, system_id_), behaviour, Hold::kReceive);
  } catch (...) {
    current_ = nullptr;
    throw;
  }
  current_ = nullptr;
}

void JsActor::pre_start() {
  invoke("preStart", val::undefined(), val::undefined(), Hold::kStart);
}

void JsActor::post_stop() {
  if (restarting_) {
    restarting_ = false;
    val message =
        restart_message_ ? message_to_js(*restart_message_, system_id_) : val::undefined();
    invoke("preRestart", error_to_js(restart_reason_), message, Hold::kNo);
    return;
  }
  invoke("postStop", val::undefined(), val::undefined(), Hold::kNo);
}

void JsActor::pre_restart(std::exception_ptr reason, const Message* message) {
  restarting_ = true;
  restart_reason_ = reason;
  restart_message_ = message;
  try {
    Actor::pre_restart(reason, message);  // stops the children, then post_stop()
  } catch (...) {
    restarting_ = false;
    throw;
  }
  restarting_ = false;
  restart_reason_ = nullptr;
  restart_message_ = nullptr;
}

void JsActor::post_restart(std::exception_ptr reason) {
  invoke("postRestart", error_to_js(reason), val::undefined(), Hold::kStart);
}

void JsActor::unhandled_from_js(val message) {
  if (current_ != nullptr) {
    const auto* js = current_->get_if<JsValue>();
    if (js == nullptr || js->value.strictlyEquals(message)) {
      unhandled(*current_);  // keeps the envelope's identity and framework type
      return;
    }
  }
  unhandled(Message(JsValue{std::move(message)}));
}

JsActor& acting_actor(std::uint32_t key) {
  JsActor* actor = JsActor::find(key);
  if (actor == nullptr) throw IllegalStateError("this actor has stopped; its context is gone");
  return *actor;
}

std::uint32_t park_completion(Completion completion) {
  const std::uint32_t key = next_completion++;
  completions().emplace(key, std::move(completion));
  return key;
}

void settle_completion(std::uint32_t key, bool ok, val error) {
  auto it = completions().find(key);
  if (it == completions().end()) return;
  Completion completion = std::move(it->second);
  completions().erase(it);
  if (ok) {
    completion.complete();
  } else {
    completion.fail(std::make_exception_ptr(JsError(std::move(error))));
  }
}

}  // namespace mailroom::wasm
