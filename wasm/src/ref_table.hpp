// RefTable: the numeric ids JS uses for core ActorRefs. An id is handed out the
// first time a ref crosses to JS and lives until its system is released, so
// the JS side can keep one ActorRef object per id (=== works on refs). Ids
// index a vector (the hot path looks a ref up per tell) and are never reused,
// so a stale JS ref of a released system can never reach a newer actor.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "mailroom/actor_ref.hpp"

namespace mailroom::wasm {

class RefTable {
 public:
  static RefTable& instance();

  // 0 for an empty ref. system_id: which system's release forgets it (0: none).
  std::uint32_t id_of(const ActorRef& ref, int system_id);
  // The ref with this id; an empty ref when unknown or released (never null).
  const ActorRef& get(std::uint32_t id) const noexcept {
    static const ActorRef none;
    return id < refs_.size() ? refs_[id].ref : none;
  }
  ActorRef find(std::uint32_t id) const { return get(id); }  // empty when unknown
  // Forgets every ref registered for the system; returns their ids.
  std::vector<std::uint32_t> release(int system_id);

 private:
  struct Entry {
    ActorRef ref;
    int system_id = 0;
  };
  std::unordered_map<ActorRef, std::uint32_t, ActorRefHash> ids_;
  std::vector<Entry> refs_ = std::vector<Entry>(1);  // id 0: the empty ref
  // Ids registered per system, so release() does not scan every id ever issued.
  std::unordered_map<int, std::vector<std::uint32_t>> by_system_;
};

}  // namespace mailroom::wasm
