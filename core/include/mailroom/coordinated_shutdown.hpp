// CoordinatedShutdown: named tasks run phase by phase when the system
// terminates. Tasks are synchronous; a throwing task is logged and the
// shutdown continues. Thread-safe.
#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "mailroom/shutdown_phase.hpp"

namespace mailroom {

class CoordinatedShutdown {
 public:
  using Task = std::function<void()>;
  // Reports a task failure (the system wires its logger in).
  using FailureReporter =
      std::function<void(ShutdownPhase, const std::string& task, const std::string& what)>;

  explicit CoordinatedShutdown(FailureReporter on_failure = {});

  // Unknown phase → OptionsError{"CoordinatedShutdown", "phase", phase}; a task
  // name already used in that phase → OptionsError field "task".
  void add_task(std::string_view phase, std::string name, Task task);
  void add_task(ShutdownPhase phase, std::string name, Task task);
  bool remove_task(ShutdownPhase phase, std::string_view name);

  // Runs the tasks of one phase in registration order (the system calls it).
  void run_phase(ShutdownPhase phase);

 private:
  struct NamedTask {
    std::string name;
    Task task;
  };
  std::mutex mutex_;
  std::map<ShutdownPhase, std::vector<NamedTask>> tasks_;
  FailureReporter on_failure_;
};

}  // namespace mailroom
