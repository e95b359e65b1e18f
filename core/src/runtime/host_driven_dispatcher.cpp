#include "mailroom/host_driven_dispatcher.hpp"

namespace mailroom {

void HostDrivenDispatcher::schedule(std::shared_ptr<detail::ActorCell> cell) {
  std::function<void()> wake;
  {
    std::lock_guard lock(mutex_);
    const bool was_idle = queue_.empty() && !running_;
    queue_.push_back(std::move(cell));
    if (was_idle && !wake_pending_ && wake_) {
      wake_pending_ = true;
      wake = wake_;
    }
  }
  if (wake) wake();
}

void HostDrivenDispatcher::shutdown() {
  std::deque<std::shared_ptr<detail::ActorCell>> dropped;
  std::lock_guard lock(mutex_);
  dropped.swap(queue_);
}

bool HostDrivenDispatcher::run_one_turn(std::size_t max_messages, std::size_t& processed) {
  std::shared_ptr<detail::ActorCell> cell;
  {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    cell = std::move(queue_.front());
    queue_.pop_front();
  }
  processed += run_turn(cell, max_messages);
  return true;
}

namespace {
// Marks a run in progress so schedule() does not wake the host meanwhile.
struct RunScope {
  RunScope(std::mutex& m, bool& running, bool& wake_pending) : m(m), running(running) {
    std::lock_guard lock(m);
    running = true;
    wake_pending = false;
  }
  ~RunScope() {
    std::lock_guard lock(m);
    running = false;
  }
  std::mutex& m;
  bool& running;
};
}  // namespace

std::size_t HostDrivenDispatcher::run_some(std::size_t max_messages) {
  RunScope scope(mutex_, running_, wake_pending_);
  std::size_t processed = 0;
  while (processed < max_messages) {
    // Never more than the budget left, never more than the actor's throughput.
    if (!run_one_turn(max_messages - processed, processed)) break;
  }
  return processed;
}

std::size_t HostDrivenDispatcher::run_for(std::chrono::microseconds budget) {
  RunScope scope(mutex_, running_, wake_pending_);
  const auto deadline = std::chrono::steady_clock::now() + budget;
  std::size_t processed = 0;
  while (run_one_turn(0, processed)) {
    if (std::chrono::steady_clock::now() >= deadline) break;
  }
  return processed;
}

std::size_t HostDrivenDispatcher::drain() {
  RunScope scope(mutex_, running_, wake_pending_);
  std::size_t processed = 0;
  while (run_one_turn(0, processed)) {
  }
  return processed;
}

bool HostDrivenDispatcher::has_work() const {
  std::lock_guard lock(mutex_);
  return !queue_.empty();
}

void HostDrivenDispatcher::set_wake(std::function<void()> wake) {
  std::lock_guard lock(mutex_);
  wake_ = std::move(wake);
}

}  // namespace mailroom
