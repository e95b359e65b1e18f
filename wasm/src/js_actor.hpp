// JsActor: the core Actor whose behaviour is a JS instance. A message is
// delivered by one call of a JS import with integers (instance index, value
// slot, sender id; see actor.js deliver) that answers a status: returned,
// threw (→ a JsError for supervision) or returned a promise (→ context().defer();
// the actor holds until it settles). Lifecycle hooks run through the slower
// trampoline (hooks.invokeActor); preStart / postRestart promises hold the
// actor through defer_start(). The JS supervisorStrategy() reaches the core as
// the strategy for its children. JS reaches the actor's context by its key.
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <string>

#include "mailroom/actor.hpp"
#include "mailroom/actor_context.hpp"

namespace mailroom::wasm {

class JsActor final : public Actor {
 public:
  // Constructs the JS instance at once (the base constructor has attached the
  // context, so `this.self` works in the JS constructor). A JS throw → JsError.
  // class_name: the spawn's withClassName; "" names it by its constructor.
  JsActor(int system_id, emscripten::val actor_class, std::string class_name = {});
  ~JsActor() override;

  void receive(const Message& message) override;
  void pre_start() override;
  void post_stop() override;
  void pre_restart(std::exception_ptr reason, const Message* message) override;
  void post_restart(std::exception_ptr reason) override;
  // The JS instance's constructor.name (the class a factory built).
  std::string class_name() const override { return class_name_; }
  // The JS supervisorStrategy(); the core default when it is not overridden.
  SupervisorStrategy supervisor_strategy() const override;

  // For the JS context API.
  ActorContext& ctx() const { return context(); }
  const Logger& logger() const { return log(); }
  void unhandled_from_js(emscripten::val message);
  // context.become(behaviour, discardOld): the core keeps the behaviour stack;
  // each entry calls the JS function through the same trampoline as onReceive.
  void become_js(emscripten::val behaviour, bool discard_old);
  int system_id() const noexcept { return system_id_; }

  // The actor with this key, or null (stopped, or never existed).
  static JsActor* find(std::uint32_t key);

 private:
  enum class Hold { kNo, kStart };  // what a returned promise holds
  void invoke(const char* hook, emscripten::val a, emscripten::val b, Hold hold);
  // onReceive (behaviour_slot < 0) or a become() behaviour (its value slot).
  void run_receive(int behaviour_slot, const Message& message);
  // The ref id of the current sender (0: none), remembered across messages.
  std::uint32_t sender_id();

  int system_id_;
  std::uint32_t key_;
  std::uint32_t index_ = 0;  // the instance's index in actor.js's table
  std::uint32_t last_sender_id_ = 0;
  std::string class_name_;
  emscripten::val instance_;
  const Message* current_ = nullptr;
  // Set while the core's default pre_restart runs, so its post_stop call
  // becomes the JS preRestart (whose default calls postStop).
  bool restarting_ = false;
  std::exception_ptr restart_reason_;
  const Message* restart_message_ = nullptr;
};

// The live actor with this key; IllegalStateError when it has stopped.
JsActor& acting_actor(std::uint32_t key);

// Async receives waiting for their promise, by key (hooks.awaitHook → completionSettle).
std::uint32_t park_completion(Completion completion);
void settle_completion(std::uint32_t key, bool ok, emscripten::val error);

}  // namespace mailroom::wasm
