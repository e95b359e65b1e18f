#include "mailroom/thread_pool_dispatcher.hpp"

#include <algorithm>
#include <chrono>

#include "actor_cell.hpp"
#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {

namespace {
// How long an idle worker polls before it sleeps, learned per worker: a poll
// that finds work widens the budget (the next message of a busy sender comes
// within microseconds), a poll that ends in sleep halves it. On a machine
// whose cores other processes want, polling that never pays costs the sender
// its core, so the budget falls to a few rounds and the worker sleeps at once.
constexpr int kMaxSpinRounds = 1024;
constexpr int kMinSpinRounds = 8;
constexpr int kYieldRounds = 8;
// An idle worker that has seen the run-next slots in use lately sleeps with a
// deadline and looks at them again: a cell that sits in the same slot behind
// the same turn across one wait is stolen. After a look that saw a cell the
// wait is short (doubling up to the last while the sightings go on), after
// one that saw none it is the last, and after kTimedLooks such looks the
// worker sleeps until woken (by the shared queue, or by a slot filled while
// it sleeps: put_next). So a cell waits at most about two last waits behind
// a long turn, a pool whose slots stay empty (one sender, one actor) sleeps
// as it did without slots, and a ping-pong does not wake a sleeper per tell.
constexpr std::chrono::microseconds kFirstLook{50};
constexpr std::chrono::microseconds kLastLook{1000};
constexpr int kTimedLooks = 4;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

thread_local ThreadPoolDispatcher::Worker* ThreadPoolDispatcher::current_ = nullptr;

void ThreadPoolDispatcher::SpinBudget::found_after(int round) noexcept {
  // Room for twice what this wait needed, so a slightly slower sender still hits.
  rounds = std::clamp(std::max(rounds, 2 * round + kMinSpinRounds), kMinSpinRounds, kMaxSpinRounds);
}
void ThreadPoolDispatcher::SpinBudget::slept() noexcept {
  rounds = std::max(kMinSpinRounds, rounds / 2);
}

ThreadPoolDispatcher::ThreadPoolDispatcher(std::size_t workers) {
  if constexpr (detail::kSingleThreaded) {
    // Mailboxes and cells of this build use plain variables, not atomics.
    throw IllegalStateError(
        "ThreadPoolDispatcher: this core is built single-threaded (MAILROOM_SINGLE_THREADED); "
        "use a HostDrivenDispatcher or ManualDispatcher");
  }
  if (workers == 0) {
    workers = std::max<std::size_t>(2, std::thread::hardware_concurrency());
  }
  worker_count_ = workers;
  slots_ = std::make_unique<Worker[]>(workers);
  threads_.reserve(workers);
  for (std::size_t i = 0; i < workers; ++i) {
    Worker& worker = slots_[i];
    worker.pool = this;
    threads_.emplace_back([this, &worker] { work(worker); });
  }
}

ThreadPoolDispatcher::~ThreadPoolDispatcher() {
  shutdown();
}

void ThreadPoolDispatcher::schedule(std::shared_ptr<detail::ActorCell> cell) {
  Worker* me = current_;
  // A turn's own re-schedule (work left after its throughput) goes behind
  // everyone queued, as does a cell scheduled from outside the pool.
  if (me != nullptr && me->pool == this && me->running != nullptr && me->running != cell.get()) {
    put_next(*me, std::move(cell));
    return;
  }
  push_shared(std::move(cell));
}

void ThreadPoolDispatcher::push_shared(std::shared_ptr<detail::ActorCell> cell) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;  // shut down: nothing runs any more
    queue_.push_back(std::move(cell));
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  // A worker registers as a sleeper under the mutex before it waits, so after
  // our unlock either it saw the cell or we see it here. A worker still
  // polling will look under the mutex before it sleeps (it stops counting as
  // spinning first), so it takes the cell and nobody need be woken: a sleeper
  // woken for it would find nothing, after a futex call on this sender's path.
  if (sleepers_.load(std::memory_order_seq_cst) > 0 &&
      spinning_.load(std::memory_order_seq_cst) == 0) {
    ready_.notify_one();
  }
}

void ThreadPoolDispatcher::put_next(Worker& me, std::shared_ptr<detail::ActorCell> cell) {
  detail::ActorCell* raw = cell.get();
  raw->park(std::move(cell));
  // seq_cst against a deep sleeper's registration and then its look at the
  // slots (take()): either it sees this cell or we see it registered.
  detail::ActorCell* displaced = me.next.exchange(raw, std::memory_order_seq_cst);
  // The newest goes first (likeliest the one this turn will wait on, as in a
  // ping-pong); the one it displaces waits in line.
  if (displaced != nullptr) push_shared(displaced->unpark());
  if (deep_sleepers_.load(std::memory_order_seq_cst) > 0) {
    { std::lock_guard lock(mutex_); }  // the sleeper is waiting, or will see the slot
    ready_.notify_all();
  }
}

std::shared_ptr<detail::ActorCell> ThreadPoolDispatcher::take_next(Worker& me) {
  // Only the owner fills the slot, so an empty look is the truth.
  if (me.next.load(std::memory_order_relaxed) == nullptr) {
    me.streak = 0;
    return nullptr;
  }
  detail::ActorCell* raw = me.next.exchange(nullptr, std::memory_order_acquire);
  if (raw == nullptr) {  // stolen
    me.streak = 0;
    return nullptr;
  }
  std::shared_ptr<detail::ActorCell> cell = raw->unpark();
  if (++me.streak > kMaxRunNextStreak && queued_.load(std::memory_order_relaxed) > 0) {
    // Enough turns in a row off the slot: the cell waits in line like everyone.
    me.streak = 0;
    push_shared(std::move(cell));
    return nullptr;
  }
  return cell;
}

std::shared_ptr<detail::ActorCell> ThreadPoolDispatcher::steal(const Worker& me, Sighting& seen) {
  Sighting first;
  for (std::size_t i = 0; i < worker_count_; ++i) {
    Worker& other = slots_[i];
    if (&other == &me) continue;
    detail::ActorCell* raw = other.next.load(std::memory_order_acquire);
    if (raw == nullptr) continue;
    const std::uint64_t turns = other.turns.load(std::memory_order_relaxed);
    if (seen.worker == &other && seen.cell == raw && seen.turns == turns) {
      // Still there behind the same turn a whole wait later: its owner is busy.
      if (other.next.compare_exchange_strong(raw, nullptr, std::memory_order_acquire,
                                             std::memory_order_relaxed)) {
        return raw->unpark();
      }
      continue;  // its owner took it meanwhile
    }
    if (first.cell == nullptr) first = Sighting{&other, raw, turns};
  }
  seen = first;
  return nullptr;
}

bool ThreadPoolDispatcher::others_waiting(const void* pool) noexcept {
  const auto& self = *static_cast<const ThreadPoolDispatcher*>(pool);
  // Asked from a turn on one of this pool's workers: the shared queue, or a
  // cell this turn told into the worker's own slot, or a shutdown.
  return self.queued_.load(std::memory_order_relaxed) > 0 ||
         current_->next.load(std::memory_order_relaxed) != nullptr ||
         self.stopping_flag_.load(std::memory_order_relaxed);
}

bool ThreadPoolDispatcher::any_slot_taken() const noexcept {
  for (std::size_t i = 0; i < worker_count_; ++i) {
    if (slots_[i].next.load(std::memory_order_seq_cst) != nullptr) return true;
  }
  return false;
}

void ThreadPoolDispatcher::release_slot(Worker& worker) noexcept {
  if (detail::ActorCell* raw = worker.next.exchange(nullptr, std::memory_order_acquire)) {
    raw->unpark();  // dropped, as the shared queue's cells are on shutdown
  }
}

void ThreadPoolDispatcher::shutdown() {
  std::deque<std::shared_ptr<detail::ActorCell>> dropped;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    stopping_flag_.store(true, std::memory_order_relaxed);
    dropped.swap(queue_);
    queued_.store(0, std::memory_order_relaxed);
  }
  ready_.notify_all();
  const auto me = std::this_thread::get_id();
  for (auto& t : threads_) {
    if (!t.joinable()) continue;
    // A worker shutting the pool down cannot join itself.
    if (t.get_id() == me) {
      t.detach();
    } else {
      t.join();
    }
  }
  threads_.clear();
  // Joined workers emptied their own slots; a detached one is this thread.
  for (std::size_t i = 0; i < worker_count_; ++i) release_slot(slots_[i]);
}

std::shared_ptr<detail::ActorCell> ThreadPoolDispatcher::take(Worker& me, SpinBudget& budget) {
  // Poll without the lock (pause, then yield) before going to sleep.
  bool found = false;
  spinning_.fetch_add(1, std::memory_order_seq_cst);
  for (int round = 0; round < budget.rounds + kYieldRounds; ++round) {
    if (queued_.load(std::memory_order_relaxed) > 0) {
      budget.found_after(round);
      found = true;
      break;
    }
    if (round < budget.rounds) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
  // Before the look under the mutex: a push that saw us spinning and woke
  // nobody is then seen by that look.
  spinning_.fetch_sub(1, std::memory_order_seq_cst);
  std::unique_lock lock(mutex_);
  Sighting seen;
  auto wait = kFirstLook;  // after a sighting
  for (;;) {
    if (stopping_) return nullptr;
    if (!queue_.empty()) {
      auto cell = std::move(queue_.front());
      queue_.pop_front();
      queued_.store(queue_.size(), std::memory_order_relaxed);
      // More waiting: a push that left them to this poller woke nobody.
      if (!queue_.empty() && sleepers_.load(std::memory_order_relaxed) > 0) ready_.notify_one();
      return cell;
    }
    if (auto cell = steal(me, seen)) return cell;
    if (!found) {
      budget.slept();
      found = true;  // once per take
    }
    const bool sighted = seen.cell != nullptr;
    if (sighted) me.timed_looks = kTimedLooks;
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    if (me.timed_looks > 0) {
      // The slots are in use: look again later rather than be woken by every
      // cell put in one.
      ready_.wait_for(lock, sighted ? wait : kLastLook,
                      [this] { return stopping_ || !queue_.empty(); });
      wait = sighted ? std::min(wait * 2, kLastLook) : kFirstLook;
      if (!sighted) --me.timed_looks;
    } else {
      // Only a push to the queue or a filled slot (put_next, which sees this
      // registration) wakes us.
      deep_sleepers_.fetch_add(1, std::memory_order_seq_cst);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty() || any_slot_taken(); });
      deep_sleepers_.fetch_sub(1, std::memory_order_relaxed);
      // Woken by a filled slot: stay within reach of the slots for a while.
      if (!stopping_ && queue_.empty()) me.timed_looks = kTimedLooks;
    }
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }
}

void ThreadPoolDispatcher::work(Worker& me) {
  current_ = &me;
  SpinBudget budget;
  while (!stopping_flag_.load(std::memory_order_relaxed)) {
    std::shared_ptr<detail::ActorCell> cell = take_next(me);
    if (!cell) cell = take(me, budget);
    if (!cell) break;
    me.turns.store(me.turns.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    me.running = cell.get();
    // Past a throughput's worth the turn goes on while nobody else waits for
    // this worker: re-queueing would hand the actor to the idle worker (a
    // cross-core move per throughput's worth) and keep that worker polling.
    run_lone_turn(cell, kUnlimitedTurn, &others_waiting, this);
    me.running = nullptr;
  }
  release_slot(me);
  current_ = nullptr;
}

}  // namespace mailroom
