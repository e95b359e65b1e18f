#include "mailroom/thread_pool_dispatcher.hpp"

#include <algorithm>

namespace mailroom {

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
  }
  ready_.notify_one();
}

void ThreadPoolDispatcher::shutdown() {
  std::deque<std::shared_ptr<detail::ActorCell>> dropped;
  {
    std::lock_guard lock(mutex_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
    dropped.swap(queue_);
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

void ThreadPoolDispatcher::work() {
  for (;;) {
    std::shared_ptr<detail::ActorCell> cell;
    {
      std::unique_lock lock(mutex_);
      ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      cell = std::move(queue_.front());
      queue_.pop_front();
    }
    run_turn(cell);
  }
}

}  // namespace mailroom
