// The block pool's heap use: blocks are carved from chunks (no heap call and
// no heap header per block, even when every block is in flight, as when a
// sender runs far ahead of its receiver), and release_idle_blocks() gives
// every chunk whose blocks are all idle back to the heap.
#include <gtest/gtest.h>

#include <malloc.h>

#include <cstddef>
#include <thread>
#include <vector>

#include "mailroom/detail/block_pool.hpp"

namespace mailroom {
namespace {

long long heap_in_use() {
#ifdef __EMSCRIPTEN__
  return static_cast<long long>(mallinfo().uordblks);
#else
  return static_cast<long long>(mallinfo2().uordblks);
#endif
}

constexpr std::size_t kBlocks = 20000;
constexpr std::size_t kNodeBytes = 48;  // a queued small envelope's node

TEST(BlockPool, BlocksInFlightCostTheirOwnSizeNotAHeapAllocationEach) {
#ifdef MAILROOM_NO_BLOCK_POOL
  GTEST_SKIP() << "sanitizer build: every block is a heap allocation";
#endif
  detail::release_idle_blocks();
  std::vector<void*> blocks;
  blocks.reserve(kBlocks);
  const long long before = heap_in_use();
  for (std::size_t i = 0; i < kBlocks; ++i) blocks.push_back(detail::allocate_block(kNodeBytes));
  const double per_block =
      static_cast<double>(heap_in_use() - before) / static_cast<double>(kBlocks);
  // One heap allocation per block would cost its header too (64 with glibc).
  EXPECT_LE(per_block, kNodeBytes + 1.0);
  for (void* b : blocks) detail::deallocate_block(b, kNodeBytes);
}

TEST(BlockPool, ReleaseIdleBlocksGivesChunksFreedOnAnotherThreadBackToTheHeap) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
#ifdef MAILROOM_NO_BLOCK_POOL
  GTEST_SKIP() << "sanitizer build: blocks go straight back to the heap";
#endif
  std::vector<void*> blocks(kBlocks);
  detail::release_idle_blocks();
  const long long before = heap_in_use();
  // Allocated on one thread, freed on another (a message's hand-over); both
  // threads end, so every block is idle and reachable from here.
  std::thread sender([&] {
    for (auto& b : blocks) b = detail::allocate_block(kNodeBytes);
  });
  sender.join();
  std::thread receiver([&] {
    for (void* b : blocks) detail::deallocate_block(b, kNodeBytes);
  });
  receiver.join();
  EXPECT_GE(heap_in_use() - before, static_cast<long long>(kBlocks * kNodeBytes))
      << "the pool keeps idle blocks";
  detail::release_idle_blocks();
  // What stays is bookkeeping (the lists' capacity), not the ~1 MB of blocks.
  EXPECT_LT(heap_in_use() - before, 64 * 1024);
  // The pool still serves after a release.
  void* again = detail::allocate_block(kNodeBytes);
  ASSERT_NE(again, nullptr);
  detail::deallocate_block(again, kNodeBytes);
}

}  // namespace
}  // namespace mailroom
