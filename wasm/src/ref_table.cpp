#include "ref_table.hpp"

namespace mailroom::wasm {

RefTable& RefTable::instance() {
  static RefTable table;
  return table;
}

std::uint32_t RefTable::id_of(const ActorRef& ref, int system_id) {
  if (!ref.valid()) return 0;
  auto it = ids_.find(ref);
  if (it != ids_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(refs_.size());
  ids_.emplace(ref, id);
  refs_.push_back(Entry{ref, system_id});
  by_system_[system_id].push_back(id);
  return id;
}

std::vector<std::uint32_t> RefTable::release(int system_id) {
  auto it = by_system_.find(system_id);
  if (it == by_system_.end()) return {};
  std::vector<std::uint32_t> released = std::move(it->second);
  by_system_.erase(it);
  for (std::uint32_t id : released) {
    ids_.erase(refs_[id].ref);
    refs_[id] = Entry{};
  }
  return released;
}

}  // namespace mailroom::wasm
