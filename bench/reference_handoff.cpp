#include "reference_handoff.hpp"

#include <atomic>
#include <thread>
#include <vector>

namespace mailroom::bench {

void reference_spsc_handoff(std::size_t messages) {
  constexpr std::size_t kSlots = 1 << 14;  // power of two
  std::vector<int> ring(kSlots);
  alignas(64) std::atomic<std::size_t> head{0};  // next slot to read
  alignas(64) std::atomic<std::size_t> tail{0};  // next slot to write
  std::thread consumer([&] {
    std::size_t received = 0, h = 0;
    volatile int sink = 0;
    while (received < messages) {
      while (h == tail.load(std::memory_order_acquire)) std::this_thread::yield();
      sink = ring[h & (kSlots - 1)];
      head.store(++h, std::memory_order_release);
      ++received;
    }
    (void)sink;
  });
  for (std::size_t t = 0; t < messages; ++t) {
    while (t - head.load(std::memory_order_acquire) >= kSlots) std::this_thread::yield();
    ring[t & (kSlots - 1)] = static_cast<int>(t);
    tail.store(t + 1, std::memory_order_release);
  }
  consumer.join();
}

}  // namespace mailroom::bench
