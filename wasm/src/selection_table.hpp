// SelectionTable: core ActorSelections JS tells through by number, so a
// selection's tell crosses as integers (the path crosses once, when JS first
// tells through it). Each selection still resolves its path at every tell.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "mailroom/actor_selection.hpp"

namespace mailroom::wasm {

class SelectionTable {
 public:
  static SelectionTable& instance();

  std::uint32_t add(int system_id, ActorSelection selection);
  // Null when unknown or its system was released.
  const ActorSelection* get(std::uint32_t id) const noexcept {
    return id < entries_.size() && entries_[id].selection ? &*entries_[id].selection : nullptr;
  }
  void release(int system_id);

 private:
  struct Entry {
    std::optional<ActorSelection> selection;
    int system_id = 0;
  };
  std::vector<Entry> entries_ = std::vector<Entry>(1);  // id 0: none
};

}  // namespace mailroom::wasm
