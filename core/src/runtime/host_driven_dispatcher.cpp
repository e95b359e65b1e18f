#include "mailroom/host_driven_dispatcher.hpp"

namespace mailroom {

void HostDrivenDispatcher::schedule(std::shared_ptr<detail::ActorCell> cell) {
  std::function<void()> wake;
  {
    std::lock_guard lock(mutex_);
    // Shut down: refused, as the other dispatchers do. A cell queued here would
    // never run and would keep its system alive (core -> dispatcher -> queue ->
    // cell -> core); its messages stay in its mailbox, whose owner decides their fate.
    if (stopped_) return;
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
  stopped_ = true;
  dropped.swap(queue_);
}

bool HostDrivenDispatcher::others_waiting(const void* self) noexcept {
  const auto& dispatcher = *static_cast<const HostDrivenDispatcher*>(self);
  std::lock_guard lock(dispatcher.mutex_);
  return !dispatcher.queue_.empty();
}

bool HostDrivenDispatcher::run_one_turn(std::size_t max_messages, std::size_t& processed) {
  std::shared_ptr<detail::ActorCell> cell;
  {
    std::lock_guard lock(mutex_);
    if (queue_.empty()) return false;
    cell = std::move(queue_.front());
    queue_.pop_front();
  }
  // With a budget, a lone actor's turn runs on past its throughput while
  // nobody else is queued (same order, fewer turn ends and re-queues).
  processed +=
      max_messages == 0 ? run_turn(cell) : run_lone_turn(cell, max_messages, &others_waiting, this);
  return true;
}

namespace {
// Marks a run in progress so schedule() does not wake the host meanwhile.
struct RunScope {
  RunScope(detail::Mutex& m, bool& running, bool& wake_pending) : m(m), running(running) {
    std::lock_guard lock(m);
    running = true;
    wake_pending = false;
  }
  ~RunScope() {
    std::lock_guard lock(m);
    running = false;
  }
  detail::Mutex& m;
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
  using Clock = std::chrono::steady_clock;
  // Never more than this many turns between two readings, whatever the estimate.
  constexpr std::size_t kMaxTurnsUnchecked = 64;
  RunScope scope(mutex_, running_, wake_pending_);
  const auto start = Clock::now();
  const auto deadline = start + budget;
  std::size_t processed = 0;
  std::size_t check_at = 1;  // read the clock once this many messages are done
  std::size_t turns = 0;
  while (run_one_turn(0, processed)) {
    if (processed < check_at && ++turns < kMaxTurnsUnchecked) continue;
    turns = 0;
    const auto now = Clock::now();
    if (now >= deadline) break;
    // Messages that fit in half the remaining budget at the pace so far.
    const double spent = std::chrono::duration<double>(now - start).count();
    const double left = std::chrono::duration<double>(deadline - now).count();
    const double per_message = spent / static_cast<double>(processed == 0 ? 1 : processed);
    const double fit = per_message > 0 ? left / per_message / 2 : 1;
    check_at = processed + (fit < 1 ? 1 : fit > 4096 ? 4096 : static_cast<std::size_t>(fit));
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
