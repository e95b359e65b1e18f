// this.context for JS actors: their core ActorContext, reached by actor key.
#include "api.hpp"
#include "conversions.hpp"
#include "error_records.hpp"
#include "js_actor.hpp"

namespace mailroom::wasm::api {

val ctx_stash(std::uint32_t key) {
  return guarded([&] { acting_actor(key).ctx().stash(); });
}
val ctx_unstash_all(std::uint32_t key) {
  return guarded([&] { acting_actor(key).ctx().unstash_all(); });
}
val ctx_stop(std::uint32_t key, std::uint32_t ref) {
  return guarded([&] { acting_actor(key).ctx().stop(ref_from_id(ref)); });
}
val ctx_watch(std::uint32_t key, std::uint32_t ref) {
  return guarded([&] { acting_actor(key).ctx().watch(ref_from_id(ref)); });
}
val ctx_unwatch(std::uint32_t key, std::uint32_t ref) {
  return guarded([&] { acting_actor(key).ctx().unwatch(ref_from_id(ref)); });
}
val ctx_parent(std::uint32_t key) {
  JsActor* a = JsActor::find(key);
  return a ? ref_to_js(a->ctx().parent(), a->system_id()) : val::null();
}
val ctx_children(std::uint32_t key) {
  return guarded([&] {
    JsActor& a = acting_actor(key);
    val out = val::array();
    for (const ActorRef& child : a.ctx().children()) {
      out.call<void>("push", ref_to_js(child, a.system_id()));
    }
    return out;
  });
}
val ctx_unhandled(std::uint32_t key, val message) {
  return guarded([&] { acting_actor(key).unhandled_from_js(std::move(message)); });
}
void completion_settle(std::uint32_t key, bool ok, val error) {
  settle_completion(key, ok, std::move(error));
}

val ctx_become(std::uint32_t key, val behaviour, bool discard_old) {
  return guarded([&] { acting_actor(key).become_js(std::move(behaviour), discard_old); });
}
val ctx_unbecome(std::uint32_t key) {
  return guarded([&] { acting_actor(key).ctx().unbecome(); });
}

}  // namespace mailroom::wasm::api
