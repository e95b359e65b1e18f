// RefTable: the numeric ids JS uses for core ActorRefs. An id is handed out the
// first time a ref crosses to JS and lives until its system is released, so
// the JS side can keep one ActorRef object per id (=== works on refs).
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
  ActorRef find(std::uint32_t id) const;  // empty when unknown
  // Forgets every ref registered for the system; returns their ids.
  std::vector<std::uint32_t> release(int system_id);

 private:
  struct Entry {
    ActorRef ref;
    int system_id;
  };
  std::unordered_map<ActorRef, std::uint32_t, ActorRefHash> ids_;
  std::unordered_map<std::uint32_t, Entry> refs_;
  std::uint32_t next_id_ = 1;
};

}  // namespace mailroom::wasm
