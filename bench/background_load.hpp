// BackgroundLoad: the "busy machine" of the loaded benchmark rows — threads
// that hash a buffer in a loop at normal priority for as long as the object
// lives, so Mailroom and CAF each run a workload while both cores are wanted.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <thread>
#include <vector>

namespace mailroom::bench {

class BackgroundLoad {
 public:
  explicit BackgroundLoad(std::size_t threads = 2);
  ~BackgroundLoad();
  BackgroundLoad(const BackgroundLoad&) = delete;
  BackgroundLoad& operator=(const BackgroundLoad&) = delete;

  std::uint64_t rounds() const noexcept { return rounds_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<std::uint64_t> rounds_{0};
  std::vector<std::thread> threads_;
};

}  // namespace mailroom::bench
