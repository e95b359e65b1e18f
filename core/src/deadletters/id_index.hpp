// IdIndex: dead-letter entry id -> ring order key, for the ring's lookups by
// id. Open addressing with linear probing in one flat array, indexed by the
// id's low bits (a capture writes the cell next to the previous capture's; a
// node-based std::unordered_map allocates a node per capture and chases a
// bucket list, which measured 1-2 us per capture in 32-bit wasm). The id 2^64-1 (never
// handed out) marks an empty cell. Robin Hood insertion keeps each probe run
// sorted by distance from home, so erasing shifts back only the cells that
// are off home (no tombstones) and stops at the first one at home: erasing
// the oldest of a sliding window of ids is O(1), not a walk of the window.
// Not thread-safe: the ring calls it under the queue's mutex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace mailroom::detail {

class IdIndex {
 public:
  // The key stored for id, or null.
  std::uint64_t* find(std::uint64_t id) noexcept;
  // Inserts or overwrites. A failure (bad_alloc while growing) leaves it as it was.
  void set(std::uint64_t id, std::uint64_t key);
  void erase(std::uint64_t id) noexcept;
  void clear() noexcept;
  std::size_t size() const noexcept { return size_; }

 private:
  static constexpr std::uint64_t kEmpty = ~std::uint64_t{0};
  struct Cell {
    std::uint64_t id = kEmpty;
    std::uint64_t key = 0;
  };
  std::size_t home(std::uint64_t id) const noexcept;
  std::size_t distance(std::size_t cell) const noexcept;  // of an occupied cell from its home
  void place(Cell cell) noexcept;                         // a new id; a free cell exists
  void grow();

  std::vector<Cell> cells_;  // size a power of two, at most 3/4 full
  std::size_t size_ = 0;
};

}  // namespace mailroom::detail
