#include "mailroom/coordinated_shutdown.hpp"

#include <algorithm>

#include "describe_exception.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

CoordinatedShutdown::CoordinatedShutdown(FailureReporter on_failure)
    : on_failure_(std::move(on_failure)) {}

void CoordinatedShutdown::add_task(std::string_view phase, std::string name, Task task) {
  auto parsed = shutdown_phase_from_string(phase);
  if (!parsed) {
    throw OptionsError("CoordinatedShutdown", "phase", std::string(phase), "unknown phase");
  }
  add_task(*parsed, std::move(name), std::move(task));
}

void CoordinatedShutdown::add_task(ShutdownPhase phase, std::string name, Task task) {
  if (!task) throw OptionsError("CoordinatedShutdown", "task", name, "the task is empty");
  std::lock_guard lock(mutex_);
  auto& list = tasks_[phase];
  for (const auto& t : list) {
    if (t.name == name) {
      throw OptionsError("CoordinatedShutdown", "task", name,
                         "already registered in phase " + std::string(to_string(phase)));
    }
  }
  list.push_back(NamedTask{std::move(name), std::move(task)});
}

bool CoordinatedShutdown::remove_task(ShutdownPhase phase, std::string_view name) {
  std::lock_guard lock(mutex_);
  auto& list = tasks_[phase];
  auto it =
      std::find_if(list.begin(), list.end(), [&](const NamedTask& t) { return t.name == name; });
  if (it == list.end()) return false;
  list.erase(it);
  return true;
}

void CoordinatedShutdown::run_phase(ShutdownPhase phase) {
  std::vector<NamedTask> snapshot;  // a task may remove itself
  {
    std::lock_guard lock(mutex_);
    auto it = tasks_.find(phase);
    if (it != tasks_.end()) snapshot = it->second;
  }
  for (const auto& t : snapshot) {
    try {
      t.task();
    } catch (...) {
      if (on_failure_)
        on_failure_(phase, t.name, detail::describe_exception(std::current_exception()));
    }
  }
}

}  // namespace mailroom
