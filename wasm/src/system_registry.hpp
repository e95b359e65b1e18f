// The live systems JS created, by numeric id, each with the host-driven
// dispatcher JS drives.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/host_driven_dispatcher.hpp"

namespace mailroom::wasm {

struct SystemHandle {
  int id = 0;
  std::string name;
  std::shared_ptr<HostDrivenDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
};

class SystemRegistry {
 public:
  static SystemRegistry& instance();

  SystemHandle& add(std::unique_ptr<SystemHandle> handle);  // assigns the id
  SystemHandle* find(int id);
  // Throws IllegalStateError when the system is unknown or released.
  SystemHandle& get(int id);
  // The live system with this name (for ghost refs told by path), or null.
  SystemHandle* find_by_name(const std::string& name);
  std::unique_ptr<SystemHandle> remove(int id);

 private:
  std::map<int, std::unique_ptr<SystemHandle>> systems_;
  int next_id_ = 1;
};

}  // namespace mailroom::wasm
