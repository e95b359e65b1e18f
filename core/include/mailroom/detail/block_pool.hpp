// Block pool: recycled fixed-size blocks for the per-message allocations (a
// queued envelope's node, a message's boxed value). A message is allocated by
// its sender's thread and freed by the receiver's; the general-purpose heap
// pays a shared-arena lock for that hand-over on every message. Here each
// thread keeps a small cache of blocks, and only whole batches cross threads.
//
// Sanitizer builds (MAILROOM_NO_BLOCK_POOL) go straight to the heap, so
// AddressSanitizer still sees every use-after-free.
#pragma once

#include <cstddef>
#include <new>

namespace mailroom::detail {

inline constexpr std::size_t kLargestPooledBlock = 256;

// bytes <= kLargestPooledBlock. Never returns nullptr (throws std::bad_alloc).
void* allocate_block(std::size_t bytes);
// Same `bytes` as the allocation.
void deallocate_block(void* block, std::size_t bytes) noexcept;
// Hands every idle block (this thread's cache and the shared lists) back to the
// heap. For measurements and long-idle processes; safe at any time.
void release_idle_blocks() noexcept;

// An allocator for std::allocate_shared and node types: small objects come
// from the pool, anything larger from the heap.
template <class T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() noexcept = default;
  template <class U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT(google-explicit-constructor)

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if constexpr (alignof(T) <= alignof(std::max_align_t)) {
      if (bytes <= kLargestPooledBlock) return static_cast<T*>(allocate_block(bytes));
    }
    return static_cast<T*>(::operator new(bytes, std::align_val_t(alignof(T))));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if constexpr (alignof(T) <= alignof(std::max_align_t)) {
      if (bytes <= kLargestPooledBlock) return deallocate_block(p, bytes);
    }
    ::operator delete(p, std::align_val_t(alignof(T)));
  }
  template <class U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace mailroom::detail
