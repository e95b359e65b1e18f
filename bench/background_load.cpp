#include "background_load.hpp"

#include <array>

namespace mailroom::bench {

namespace {
// FNV-1a over a 4 KiB buffer that changes each round: pure CPU, L1-resident,
// nothing the compiler can drop.
std::uint64_t hash_round(std::array<std::uint8_t, 4096>& buffer, std::uint64_t seed) {
  std::uint64_t h = 1469598103934665603ull ^ seed;
  for (std::uint8_t& byte : buffer) {
    h = (h ^ byte) * 1099511628211ull;
    byte = static_cast<std::uint8_t>(h);
  }
  return h;
}
}  // namespace

BackgroundLoad::BackgroundLoad(std::size_t threads) {
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) {
    threads_.emplace_back([this, i] {
      std::array<std::uint8_t, 4096> buffer{};
      std::uint64_t h = i;
      while (!stop_.load(std::memory_order_relaxed)) {
        h = hash_round(buffer, h);
        rounds_.fetch_add(1, std::memory_order_relaxed);
      }
    });
  }
}

BackgroundLoad::~BackgroundLoad() {
  stop_.store(true, std::memory_order_relaxed);
  for (auto& t : threads_) t.join();
}

}  // namespace mailroom::bench
