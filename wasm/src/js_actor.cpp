#include "js_actor.hpp"

#include <emscripten/emscripten.h>

#include <memory>
#include <unordered_map>

#include "conversions.hpp"
#include "error_records.hpp"
#include "js_hooks.hpp"
#include "js_supervision.hpp"
#include "js_value.hpp"
#include "mailroom/deferred_start.hpp"
#include "mailroom/errors.hpp"
#include "ref_table.hpp"

// The JS side of delivery (wasm/js/actor.js; hooks.js installs them). The
// per-message one is a variable of the module's scope (hot_imports.js).
EM_JS(int, mr_deliver,
      (std::uint32_t index, std::uint32_t slot, std::uint32_t sender, int behaviour),
      { return mrDeliverImpl(index, slot, sender, behaviour); });
EM_JS(int, mr_deliver_number,
      (std::uint32_t index, double value, std::uint32_t sender, int behaviour),
      { return mrDeliverNumberImpl(index, value, sender, behaviour); });
EM_JS(int, mr_take_outcome, (), { return Emval.toHandle(Module.mrTakeOutcome()); });
EM_JS(void, mr_await_outcome, (std::uint32_t index, std::uint32_t key),
      { Module.mrAwaitOutcome(index, key); });
EM_JS(void, mr_actor_gone, (std::uint32_t index), { Module.mrActorGone(index); });

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

// What mr_deliver answers.
enum Delivery : int { kReturned = 0, kThrew = 1, kPromise = 2 };

val take_outcome() {
  return val::take_ownership(reinterpret_cast<emscripten::EM_VAL>(mr_take_outcome()));
}
}  // namespace

JsActor::JsActor(int system_id, val actor_class, std::string class_name)
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
  index_ = result["index"].as<std::uint32_t>();
  class_name_ = class_name.empty() ? result["className"].as<std::string>() : std::move(class_name);
}

JsActor::~JsActor() {
  actors().erase(key_);
  if (index_ != 0) mr_actor_gone(index_);
}

JsActor* JsActor::find(std::uint32_t key) {
  auto it = actors().find(key);
  return it == actors().end() ? nullptr : it->second;
}

void JsActor::invoke(const char* hook, val a, val b, Hold hold) {
  val result = hooks()["invokeActor"](instance_, std::string(hook), a, b);
  if (result.isUndefined()) return;
  if (threw(result)) rethrow_js(result["thrown"]);
  if (result.hasOwnProperty("promise")) {
    // receive, preStart and postRestart hold their actor until the promise
    // settles; postStop's and preRestart's promises are only watched.
    std::uint32_t key = 0;
    if (hold == Hold::kStart) key = park_completion(defer_start(context()));
    hooks()["awaitHook"](instance_, result["promise"], key);
  }
}

void JsActor::receive(const Message& message) {
  run_receive(-1, message);
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
  // The behaviour function lives in the value slab while the core keeps it.
  auto slot = std::make_shared<const JsValue>(behaviour);
  context().become([this, slot = std::move(slot)](
                       const Message& m) { run_receive(static_cast<int>(slot->slot()), m); },
                   discard_old);
}

std::uint32_t JsActor::sender_id() {
  const ActorRef& from = sender();
  if (!from.valid()) return 0;
  if (last_sender_id_ != 0 && RefTable::instance().get(last_sender_id_) == from) {
    return last_sender_id_;
  }
  last_sender_id_ = ref_id(from, system_id_);
  return last_sender_id_;
}

void JsActor::run_receive(int behaviour_slot, const Message& message) {
  struct Current {  // unhandled_from_js compares against the message being handled
    explicit Current(JsActor& a, const Message& m) : actor(a) { actor.current_ = &m; }
    ~Current() { actor.current_ = nullptr; }
    JsActor& actor;
  } current(*this, message);
  const std::uint32_t sender = sender_id();
  int status;
  if (const auto* js = message.get_if<JsValue>()) {
    status = mr_deliver(index_, js->slot(), sender, behaviour_slot);
  } else if (const auto* number = message.get_if<JsNumber>()) {
    status = mr_deliver_number(index_, number->value, sender, behaviour_slot);
  } else {
    // A framework message (Terminated, DeadLetter, ...) as its JS class.
    const JsValue converted(message_to_js(message, system_id_));
    status = mr_deliver(index_, converted.slot(), sender, behaviour_slot);
  }
  if (status == kReturned) return;
  if (status == kThrew) rethrow_js(take_outcome());
  mr_await_outcome(index_, park_completion(context().defer()));
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
    const auto* number = current_->get_if<JsNumber>();
    const bool same = js != nullptr       ? js->value().strictlyEquals(message)
                      : number != nullptr ? val(number->value).strictlyEquals(message)
                                          : true;  // a framework message: the one handled
    if (same) {
      unhandled(*current_);  // keeps the envelope's identity and framework type
      return;
    }
  }
  unhandled(Message(JsValue(message)));
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
