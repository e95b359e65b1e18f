// ThreadPoolDispatcher: N worker threads sharing one run queue of actors, each
// worker with a run-next slot of its own. The native default.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
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

  // From a turn running on one of this pool's workers, the cell goes to that
  // worker's run-next slot (it runs when the turn ends, without the shared
  // queue); from anywhere else, to the back of the shared queue.
  void schedule(std::shared_ptr<detail::ActorCell> cell) override;
  bool runs_itself() const noexcept override { return true; }
  // Joins the workers (a worker calling it is detached instead of joined).
  void shutdown() override;
  std::size_t workers() const noexcept { return threads_.size(); }

  // A worker runs at most this many turns in a row from its run-next slot
  // while the shared queue holds someone: two actors telling each other
  // forever cannot keep a third from its turn.
  static constexpr int kMaxRunNextStreak = 32;
  // A turn goes on past its actor's throughput, a throughput's worth at a
  // time, for as long as no other cell waits for its worker (no cap: the
  // check at each throughput boundary is what keeps everyone else's turn).
  static constexpr std::size_t kUnlimitedTurn = SIZE_MAX;

 private:
  // Each worker's polling budget before it sleeps (thread_pool_dispatcher.cpp).
  struct SpinBudget {
    int rounds = 64;
    void found_after(int round) noexcept;
    void slept() noexcept;
  };
  // One per thread, on a line of its own: the owner writes it every turn.
  struct alignas(64) Worker {
    // The cell scheduled last by a tell from this worker's current turn (its
    // reference parked in the cell). Taken by an exchange, by the owner when
    // the turn ends or by a thief (steal()), so exactly one thread gets it.
    std::atomic<detail::ActorCell*> next{nullptr};
    // Turns begun, so a thief can tell a slot that waits behind one long turn.
    std::atomic<std::uint64_t> turns{0};
    ThreadPoolDispatcher* pool = nullptr;
    detail::ActorCell* running = nullptr;  // owner only: the cell of the current turn
    int streak = 0;                        // owner only: turns in a row from `next`
    int timed_looks = 0;  // owner only: deadline sleeps left before sleeping until woken
  };
  // A thief's last look at the other workers' slots.
  struct Sighting {
    const Worker* worker = nullptr;
    const detail::ActorCell* cell = nullptr;
    std::uint64_t turns = 0;
  };
  void work(Worker& me);
  void push_shared(std::shared_ptr<detail::ActorCell> cell);
  void put_next(Worker& me, std::shared_ptr<detail::ActorCell> cell);
  std::shared_ptr<detail::ActorCell> take_next(Worker& me);
  std::shared_ptr<detail::ActorCell> take(Worker& me, SpinBudget& budget);  // nullptr: stopping
  std::shared_ptr<detail::ActorCell> steal(const Worker& me, Sighting& seen);
  // A turn's extension check (run_lone_turn): another cell waits for this
  // worker (the shared queue, or this worker's slot), or the pool stops.
  static bool others_waiting(const void* pool) noexcept;
  bool any_slot_taken() const noexcept;
  void release_slot(Worker& worker) noexcept;

  static thread_local Worker* current_;  // the calling thread's, if it is a worker

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::shared_ptr<detail::ActorCell>> queue_;
  bool stopping_ = false;                   // under mutex_
  std::atomic<bool> stopping_flag_{false};  // the same, for a worker's slot fast path
  // Lets schedule() skip the wake-up call while every worker is busy or still
  // spinning: a futex wake per message would cost more than the message.
  std::atomic<std::size_t> sleepers_{0};
  // Workers polling in take() before they lock: while one is, a push to the
  // shared queue wakes no sleeper (the poller takes the cell).
  std::atomic<std::size_t> spinning_{0};
  // Sleepers with no deadline (no slot seen in use lately): a cell put in a slot
  // wakes one, or nobody could steal it from behind a long turn.
  std::atomic<std::size_t> deep_sleepers_{0};
  std::atomic<std::size_t> queued_{0};
  std::unique_ptr<Worker[]> slots_;
  std::size_t worker_count_ = 0;
  std::vector<std::thread> threads_;
};

}  // namespace mailroom
