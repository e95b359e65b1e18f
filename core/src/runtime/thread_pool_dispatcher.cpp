#include "mailroom/thread_pool_dispatcher.hpp"

#include <algorithm>

namespace mailroom {

namespace {
// How long an idle worker polls before it sleeps: long enough to catch the
// next message of a busy sender (a few microseconds), short enough not to
// starve the sender on a machine with fewer cores than threads.
constexpr int kSpinRounds = 64;
constexpr int kYieldRounds = 8;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}
}  // namespace

ThreadPoolDispatcher::ThreadPoolDispatcher(std::size_t workers) {
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

std::shared_ptr<detail::ActorCell> ThreadPoolDispatcher::take() {
  // Poll briefly without the lock before going to sleep.
  for (int round = 0; round < kSpinRounds + kYieldRounds; ++round) {
    if (queued_.load(std::memory_order_relaxed) > 0) break;
    if (round < kSpinRounds) {
      cpu_relax();
    } else {
      std::this_thread::yield();
    }
  }
  std::unique_lock lock(mutex_);
  if (queue_.empty() && !stopping_) {
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
  while (auto cell = take()) run_turn(cell);
}

}  // namespace mailroom
