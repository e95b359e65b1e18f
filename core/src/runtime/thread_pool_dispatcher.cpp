#include "mailroom/thread_pool_dispatcher.hpp"

#include <algorithm>

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

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

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
  threads_.reserve(workers);
  for (std::size_t i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
}

ThreadPoolDispatcher::~ThreadPoolDispatcher() {
  shutdown();
}

void ThreadPoolDispatcher::schedule(std::shared_ptr<detail::ActorCell> cell) {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;  // shut down: nothing runs any more
    queue_.push_back(std::move(cell));
    queued_.store(queue_.size(), std::memory_order_relaxed);
  }
  // A worker registers as a sleeper under the mutex before it waits, so after
  // our unlock either it saw the cell or we see it here.
  if (sleepers_.load(std::memory_order_seq_cst) > 0) ready_.notify_one();
}

void ThreadPoolDispatcher::shutdown() {
  std::deque<std::shared_ptr<detail::ActorCell>> dropped;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
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
}

std::shared_ptr<detail::ActorCell> ThreadPoolDispatcher::take(SpinBudget& budget) {
  // Poll without the lock (pause, then yield) before going to sleep.
  bool found = false;
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
  std::unique_lock lock(mutex_);
  if (queue_.empty() && !stopping_) {
    if (!found) budget.slept();
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }
  if (stopping_) return nullptr;
  auto cell = std::move(queue_.front());
  queue_.pop_front();
  queued_.store(queue_.size(), std::memory_order_relaxed);
  return cell;
}

void ThreadPoolDispatcher::work() {
  SpinBudget budget;
  while (auto cell = take(budget)) run_turn(cell);
}

}  // namespace mailroom
