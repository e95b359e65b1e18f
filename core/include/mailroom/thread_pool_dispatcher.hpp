// ThreadPoolDispatcher: N worker threads sharing one run queue of actors.
// The native default.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "mailroom/dispatcher.hpp"

namespace mailroom {

class ThreadPoolDispatcher final : public Dispatcher {
 public:
  // 0 = max(2, hardware_concurrency).
  explicit ThreadPoolDispatcher(std::size_t workers = 0);
  ~ThreadPoolDispatcher() override;

  void schedule(std::shared_ptr<detail::ActorCell> cell) override;
  bool runs_itself() const noexcept override { return true; }
  // Joins the workers (a worker calling it is detached instead of joined).
  void shutdown() override;
  std::size_t workers() const noexcept { return threads_.size(); }

 private:
  // Each worker's polling budget before it sleeps (thread_pool_dispatcher.cpp).
  struct SpinBudget {
    int rounds = 64;
    void found_after(int round) noexcept;
    void slept() noexcept;
  };
  void work();
  std::shared_ptr<detail::ActorCell> take(SpinBudget& budget);  // nullptr: shutting down

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::shared_ptr<detail::ActorCell>> queue_;
  bool stopping_ = false;
  // Lets schedule() skip the wake-up call while every worker is busy or still
  // spinning: a futex wake per message would cost more than the message.
  std::atomic<std::size_t> sleepers_{0};
  std::atomic<std::size_t> queued_{0};
  std::vector<std::thread> threads_;
};

}  // namespace mailroom
