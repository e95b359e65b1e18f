#include "journal_syncer.hpp"

#include <utility>

namespace mailroom::detail {

JournalSyncer::JournalSyncer(std::function<void()> sync) : sync_(std::move(sync)) {}

JournalSyncer::~JournalSyncer() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void JournalSyncer::arm(std::int64_t delay_ms) {
  const Clock::time_point at = Clock::now() + std::chrono::milliseconds(delay_ms);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_) return;
    if (due_ && *due_ <= at) return;  // an earlier sync covers this change too
    due_ = at;
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  wake_.notify_all();
}

void JournalSyncer::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (!due_) {
      wake_.wait(lock);
      continue;
    }
    if (Clock::now() < *due_) {
      wake_.wait_until(lock, *due_);
      continue;
    }
    due_.reset();
    lock.unlock();
    sync_();  // never throws (DeadLetterQueue::sync_due)
    lock.lock();
  }
}

}  // namespace mailroom::detail
