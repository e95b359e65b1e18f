// JournalSyncer: the native timer behind a persistent dead-letter queue's
// sync-within bound. arm(delay) asks for one call of `sync` delay ms from now
// (an earlier request stands: a burst arms once and is synced together); the
// call runs on the syncer's own thread, started at the first arm. Hosts
// without threads (the wasm build) arm a timer of their own instead
// (DeadLetterQueue::Dependencies::sync_timer).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace mailroom::detail {

class JournalSyncer {
 public:
  explicit JournalSyncer(std::function<void()> sync);
  // Stops the thread (a sync running now completes; one not yet due is
  // dropped: the owner flushes after).
  ~JournalSyncer();
  JournalSyncer(const JournalSyncer&) = delete;
  JournalSyncer& operator=(const JournalSyncer&) = delete;

  void arm(std::int64_t delay_ms);

 private:
  using Clock = std::chrono::steady_clock;
  void run();

  std::function<void()> sync_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Clock::time_point> due_;
  bool stopping_ = false;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace mailroom::detail
