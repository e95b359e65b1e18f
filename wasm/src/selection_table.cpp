#include "selection_table.hpp"

namespace mailroom::wasm {

SelectionTable& SelectionTable::instance() {
  static SelectionTable table;
  return table;
}

std::uint32_t SelectionTable::add(int system_id, ActorSelection selection) {
  // Never reused: a JS selection of a released system must not reach a new one.
  const auto id = static_cast<std::uint32_t>(entries_.size());
  entries_.emplace_back();
  entries_[id].selection.emplace(std::move(selection));
  entries_[id].system_id = system_id;
  return id;
}

void SelectionTable::release(int system_id) {
  for (std::uint32_t id = 1; id < entries_.size(); ++id) {
    if (entries_[id].selection && entries_[id].system_id == system_id) {
      entries_[id] = Entry{};
    }
  }
}

}  // namespace mailroom::wasm
