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
  const std::uint32_t id = next_id_++;
  ids_.emplace(ref, id);
  refs_.emplace(id, Entry{ref, system_id});
  return id;
}

ActorRef RefTable::find(std::uint32_t id) const {
  auto it = refs_.find(id);
  return it == refs_.end() ? ActorRef() : it->second.ref;
}

std::vector<std::uint32_t> RefTable::release(int system_id) {
  std::vector<std::uint32_t> released;
  for (auto it = refs_.begin(); it != refs_.end();) {
    if (it->second.system_id == system_id) {
      released.push_back(it->first);
      ids_.erase(it->second.ref);
      it = refs_.erase(it);
    } else {
      ++it;
    }
  }
  return released;
}

}  // namespace mailroom::wasm
