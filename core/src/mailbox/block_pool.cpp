#include "mailroom/detail/block_pool.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <utility>
#include <vector>

namespace mailroom::detail {

#ifdef MAILROOM_NO_BLOCK_POOL

void* allocate_block(std::size_t bytes) {
  return ::operator new(bytes);
}
void deallocate_block(void* block, std::size_t) noexcept {
  ::operator delete(block);
}
void release_idle_blocks() noexcept {}

#elif defined(MAILROOM_SINGLE_THREADED) && MAILROOM_SINGLE_THREADED

// One thread (wasm): no batches to hand over, no shared lists. A freed block
// goes on its class's free list and stays there, however many there are: a
// burst of a million queued messages is followed by the next burst, and wasm
// memory never shrinks anyway. A dry list is refilled by carving a chunk, one
// heap call per kChunkBlocks blocks, without dlmalloc's per-chunk header. The
// classes start at 8 bytes (a free block only needs its link; wasm32 pointers
// are 4 bytes): a boxed JS value's slot and count take 8, not 24.

namespace {

constexpr std::array<std::size_t, 11> kClassBytes{
    8, 16, 24, 32, 40, 48, 56, 64, 72, 128, kLargestPooledBlock};
static_assert(sizeof(void*) <= kClassBytes[0], "a free block holds its link");
constexpr std::size_t kChunkBlocks = 256;

struct FreeBlock {
  FreeBlock* next;
};

struct SizeClass {
  FreeBlock* free = nullptr;
  char* carve = nullptr;  // the rest of the last chunk
  char* carve_end = nullptr;
};
std::array<SizeClass, kClassBytes.size()> classes;

std::size_t class_of(std::size_t bytes) noexcept {
  std::size_t c = 0;
  while (kClassBytes[c] < bytes) ++c;
  return c;
}

}  // namespace

void* allocate_block(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  SizeClass& sc = classes[c];
  if (FreeBlock* block = sc.free) {
    sc.free = block->next;
    return block;
  }
  if (sc.carve == sc.carve_end) {
    // Chunks are never freed: their blocks live on the free list from then on.
    // A chunk starts max_align_t-aligned, so every block of a class that is a
    // multiple of an alignment is aligned to it (a type's size is a multiple
    // of its alignment, and the smallest class that holds it is too).
    sc.carve = static_cast<char*>(
        ::operator new(kClassBytes[c] * kChunkBlocks, std::align_val_t(alignof(std::max_align_t))));
    sc.carve_end = sc.carve + kClassBytes[c] * kChunkBlocks;
  }
  void* block = sc.carve;
  sc.carve += kClassBytes[c];
  return block;
}

void deallocate_block(void* block, std::size_t bytes) noexcept {
  SizeClass& sc = classes[class_of(bytes)];
  auto* freed = static_cast<FreeBlock*>(block);
  freed->next = sc.free;
  sc.free = freed;
}

// Carved blocks cannot go back to the heap one by one; they stay pooled.
void release_idle_blocks() noexcept {}

#else

namespace {

// Sized for what a message allocates: a queue node holding a small envelope
// (48 bytes; 40 in 32-bit wasm), a boxed value with its count (16 + the value).
constexpr std::array<std::size_t, 7> kClassBytes{24, 40, 48, 56, 72, 128, kLargestPooledBlock};
constexpr std::size_t kBatch = 64;              // blocks that cross threads together
constexpr std::size_t kMaxSharedBatches = 256;  // beyond this, blocks go back to the heap

std::size_t class_of(std::size_t bytes) noexcept {
  std::size_t c = 0;
  while (kClassBytes[c] < bytes) ++c;
  return c;
}

struct FreeBlock {
  FreeBlock* next;
};

struct Batch {
  FreeBlock* head;
  std::size_t count;
};

void free_list(FreeBlock* head) noexcept {
  while (head) ::operator delete(std::exchange(head, head->next));
}

// Batches shared by every thread, one list per size class. Never destroyed:
// worker threads may still return blocks while statics are torn down.
struct Shared {
  std::mutex mutex;
  std::vector<Batch> batches;
  // batches.size(), readable without the lock: a thread that finds its cache
  // empty while every block is in flight (a sender far ahead of its receiver)
  // goes straight to the heap instead of taking the lock per allocation.
  std::atomic<std::size_t> available{0};
};
Shared& shared(std::size_t size_class) {
  static auto* lists = new std::array<Shared, kClassBytes.size()>();
  return (*lists)[size_class];
}

void give_batch(std::size_t size_class, Batch batch) noexcept {
  Shared& s = shared(size_class);
  {
    std::lock_guard lock(s.mutex);
    if (s.batches.size() < kMaxSharedBatches) {
      s.batches.push_back(batch);
      s.available.store(s.batches.size(), std::memory_order_relaxed);
      return;
    }
  }
  free_list(batch.head);
}

struct LocalCache {
  std::array<Batch, kClassBytes.size()> lists{};
  ~LocalCache() {  // a thread ends: its blocks go to the others
    for (std::size_t c = 0; c < lists.size(); ++c) {
      if (lists[c].head) give_batch(c, std::exchange(lists[c], Batch{}));
    }
  }
};
thread_local LocalCache t_cache;

}  // namespace

void* allocate_block(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  Batch& local = t_cache.lists[c];
  if (!local.head) {
    Shared& s = shared(c);
    if (s.available.load(std::memory_order_relaxed) > 0) {
      std::lock_guard lock(s.mutex);
      if (!s.batches.empty()) {
        local = s.batches.back();
        s.batches.pop_back();
        s.available.store(s.batches.size(), std::memory_order_relaxed);
      }
    }
  }
  if (!local.head) return ::operator new(kClassBytes[c]);
  FreeBlock* block = local.head;
  local.head = block->next;
  --local.count;
  // Blocks usually come back from another core: fetch the next one's link now
  // rather than stall on it at the next send.
  if (local.head) __builtin_prefetch(local.head, 1);
  return block;
}

void deallocate_block(void* block, std::size_t bytes) noexcept {
  const std::size_t c = class_of(bytes);
  Batch& local = t_cache.lists[c];
  auto* freed = static_cast<FreeBlock*>(block);
  freed->next = local.head;
  local.head = freed;
  if (++local.count < 2 * kBatch) return;
  // Keep one batch here, share the other.
  FreeBlock* tail = local.head;
  for (std::size_t i = 1; i < kBatch; ++i) tail = tail->next;
  Batch out{local.head, kBatch};
  local.head = tail->next;
  local.count -= kBatch;
  tail->next = nullptr;
  give_batch(c, out);
}

void release_idle_blocks() noexcept {
  for (std::size_t c = 0; c < kClassBytes.size(); ++c) {
    free_list(std::exchange(t_cache.lists[c], Batch{}).head);
    std::vector<Batch> batches;
    {
      Shared& s = shared(c);
      std::lock_guard lock(s.mutex);
      batches.swap(s.batches);
      s.available.store(0, std::memory_order_relaxed);
    }
    for (const Batch& b : batches) free_list(b.head);
  }
}

#endif

}  // namespace mailroom::detail
