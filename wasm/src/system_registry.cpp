#include "system_registry.hpp"

#include "mailroom/errors.hpp"

namespace mailroom::wasm {

SystemRegistry& SystemRegistry::instance() {
  static SystemRegistry registry;
  return registry;
}

SystemHandle& SystemRegistry::add(std::unique_ptr<SystemHandle> handle) {
  handle->id = next_id_++;
  SystemHandle& ref = *handle;
  systems_.emplace(ref.id, std::move(handle));
  return ref;
}

SystemHandle* SystemRegistry::find(int id) {
  auto it = systems_.find(id);
  return it == systems_.end() ? nullptr : it->second.get();
}

SystemHandle& SystemRegistry::get(int id) {
  if (SystemHandle* handle = find(id)) return *handle;
  throw IllegalStateError("this actor system has terminated");
}

SystemHandle* SystemRegistry::find_by_name(const std::string& name) {
  for (auto& [id, handle] : systems_) {
    if (handle->name == name && !handle->system->is_terminated()) return handle.get();
  }
  return nullptr;
}

std::unique_ptr<SystemHandle> SystemRegistry::remove(int id) {
  auto it = systems_.find(id);
  if (it == systems_.end()) return nullptr;
  auto handle = std::move(it->second);
  systems_.erase(it);
  return handle;
}

}  // namespace mailroom::wasm
