// HostDrivenDispatcher: single-threaded, driven in slices by a host event loop
// (the browser / Node). set_wake's callback is invoked once when work appears
// while the dispatcher was idle, so the host can schedule its next slice.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>

#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/dispatcher.hpp"

namespace mailroom {

class HostDrivenDispatcher final : public Dispatcher {
 public:
  void schedule(std::shared_ptr<detail::ActorCell> cell) override;
  bool runs_itself() const noexcept override { return false; }
  std::size_t drain() override;
  // Drops what is queued; later schedule() calls queue nothing and wake nobody.
  void shutdown() override;

  // Processes at most `max_messages` messages; returns how many it processed.
  std::size_t run_some(std::size_t max_messages);
  // Processes actor turns until `budget` has elapsed or no work is left;
  // returns messages processed. The clock is read between turns, but not after
  // every one: from the time the messages so far took, it skips the turns that
  // fit in half the remaining budget (reading the clock costs a call into the
  // host in wasm, more than a small message's whole turn).
  std::size_t run_for(std::chrono::microseconds budget);
  bool has_work() const;
  // Called (on the scheduling thread, outside locks) when work appears while
  // idle. After a run_* that leaves work, the host checks has_work() itself.
  void set_wake(std::function<void()> wake);

 private:
  bool run_one_turn(std::size_t max_messages, std::size_t& processed);
  static bool others_waiting(const void* self) noexcept;

  mutable detail::Mutex mutex_;  // no lock at all in a single-threaded build
  std::deque<std::shared_ptr<detail::ActorCell>> queue_;
  std::function<void()> wake_;
  bool wake_pending_ = false;  // a wake was sent and no run_* has started since
  bool running_ = false;
  bool stopped_ = false;  // after shutdown() schedule() queues nothing
};

}  // namespace mailroom
