// Counter: one monotonically increasing metric series. Obtained from
// MetricsRegistry::counter, which keeps it alive (and at the same address) for
// the registry's lifetime; inc() is lock-free and safe from any thread.
#pragma once

#include <atomic>
#include <cstdint>

namespace mailroom {

class Counter {
 public:
  Counter() = default;
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  void inc(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

}  // namespace mailroom
