// ManualDispatcher: deterministic, single-threaded, driven by the caller.
// Tests use it to assert exact orders: nothing runs until step() or
// run_until_idle() is called.
#pragma once

#include <deque>
#include <mutex>

#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/dispatcher.hpp"

namespace mailroom {

class ManualDispatcher final : public Dispatcher {
 public:
  void schedule(std::shared_ptr<detail::ActorCell> cell) override;
  bool runs_itself() const noexcept override { return false; }
  std::size_t drain() override { return run_until_idle(); }
  // Drops what is queued; later schedule() calls queue nothing.
  void shutdown() override;

  // Processes one message of the next scheduled actor (which then goes to the
  // back of the queue if it has more). False when nothing was scheduled.
  bool step();
  // Steps until no actor is scheduled; returns the number of messages processed.
  std::size_t run_until_idle();
  // Actors currently scheduled.
  std::size_t pending() const;

 private:
  mutable detail::Mutex mutex_;  // no lock at all in a single-threaded build
  std::deque<std::shared_ptr<detail::ActorCell>> queue_;
  bool stopped_ = false;  // after shutdown() schedule() queues nothing
};

}  // namespace mailroom
