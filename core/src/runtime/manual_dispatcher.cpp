#include "mailroom/manual_dispatcher.hpp"

namespace mailroom {

void ManualDispatcher::schedule(std::shared_ptr<detail::ActorCell> cell) {
  std::lock_guard lock(mutex_);
  if (stopped_) return;  // shut down: nothing runs any more (as the thread pool)
  queue_.push_back(std::move(cell));
}

void ManualDispatcher::shutdown() {
  std::deque<std::shared_ptr<detail::ActorCell>> dropped;
  std::lock_guard lock(mutex_);
  stopped_ = true;
  dropped.swap(queue_);
}

bool ManualDispatcher::step() {
  std::shared_ptr<detail::ActorCell> cell;
  {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    cell = std::move(queue_.front());
    queue_.pop_front();
  }
  run_turn(cell, 1);
  return true;
}

std::size_t ManualDispatcher::run_until_idle() {
  std::size_t processed = 0;
  for (;;) {
    std::shared_ptr<detail::ActorCell> cell;
    {
      std::lock_guard lock(mutex_);
      if (queue_.empty()) return processed;
      cell = std::move(queue_.front());
      queue_.pop_front();
    }
    processed += run_turn(cell, 1);
  }
}

std::size_t ManualDispatcher::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size();
}

}  // namespace mailroom
