#include "mailroom/detail/block_pool.hpp"

#include <algorithm>
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

// Many threads. Each keeps, per size class, a free list and the uncarved rest
// of its last chunk; freed blocks cross threads in batches of kBatch through a
// shared list per class. A thread with no block of its own takes a batch from
// there, or carves a new chunk: one heap call per chunk, never one per
// message, even while a sender runs far ahead of its receiver (every block in
// flight). Blocks are never handed to the heap one by one (a carved block has
// no heap header: a 48-byte node costs 48 bytes, not malloc's 64); the pool
// keeps its high-water mark until release_idle_blocks(), which gives back
// every chunk whose blocks are all idle and reachable.

namespace {

// Sized for what a message allocates: a queue node holding a small envelope
// (48 bytes), a boxed value with its count (16 + the value).
constexpr std::array<std::size_t, 7> kClassBytes{24, 40, 48, 56, 72, 128, kLargestPooledBlock};
constexpr std::size_t kBatch = 64;  // blocks that cross threads together
constexpr std::size_t kChunkBytes = 16 * 1024;

constexpr std::size_t chunk_blocks(std::size_t size_class) noexcept {
  return kChunkBytes / kClassBytes[size_class] > kBatch ? kChunkBytes / kClassBytes[size_class]
                                                        : kBatch;
}
constexpr std::size_t chunk_bytes(std::size_t size_class) noexcept {
  return chunk_blocks(size_class) * kClassBytes[size_class];
}

std::size_t class_of(std::size_t bytes) noexcept {
  std::size_t c = 0;
  while (kClassBytes[c] < bytes) ++c;
  return c;
}

// `ahead` is the block kAhead places further down the list when the block was
// freed (a hint only: it may have moved since). An allocation prefetches it
// for writing, so the blocks a sender is about to fill, last written on the
// receiver's core, are already on its own when it gets there.
constexpr std::size_t kAhead = 4;
struct FreeBlock {
  FreeBlock* next;
  FreeBlock* ahead;
};
static_assert(sizeof(FreeBlock) <= kClassBytes[0], "a free block holds its links");

inline void prefetch_for_write(const void* p) noexcept {
#if defined(__x86_64__)
  // PREFETCHW, which the compiler emits only with -mprfchw; a no-op on CPUs
  // without it, and harmless on any address (a prefetch never faults).
  asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
#else
  __builtin_prefetch(p, 1);
#endif
}

struct Batch {
  FreeBlock* head;
  std::size_t count;
};

// Batches shared by every thread and the chunks carved, one of each per size
// class. Never destroyed: worker threads may still return blocks while
// statics are torn down.
struct Shared {
  std::mutex mutex;
  std::vector<Batch> batches;
  // batches.size(), readable without the lock: a thread that finds its cache
  // empty while every block is in flight (a sender far ahead of its receiver)
  // carves a chunk instead of taking the lock for nothing.
  std::atomic<std::size_t> available{0};
  std::vector<char*> chunks;  // every live chunk of this class
};
Shared& shared(std::size_t size_class) {
  static auto* lists = new std::array<Shared, kClassBytes.size()>();
  return (*lists)[size_class];
}

void give_batch(std::size_t size_class, Batch batch) noexcept {
  Shared& s = shared(size_class);
  std::lock_guard lock(s.mutex);
  try {
    s.batches.push_back(batch);
  } catch (...) {
    // No room to record it: the blocks stay unreachable rather than wrong
    // (their chunks are simply never released).
    return;
  }
  s.available.store(s.batches.size(), std::memory_order_relaxed);
}

struct LocalClass {
  Batch list{nullptr, 0};
  FreeBlock* recent[kAhead] = {};  // the last kAhead blocks freed here (for `ahead`)
  std::size_t freed = 0;
  // The block freed when the list grew to kBatch + 1 (exactly kBatch below
  // it), while it is still there: the end of the batch to share, found
  // without walking kBatch links.
  FreeBlock* cut = nullptr;
  char* carve = nullptr;  // the rest of this thread's last chunk
  char* carve_end = nullptr;
};

// The uncarved rest of a chunk, as a list of free blocks.
Batch take_carve(std::size_t size_class, LocalClass& local) noexcept {
  Batch out{nullptr, 0};
  for (char* p = local.carve; p != local.carve_end; p += kClassBytes[size_class]) {
    auto* block = reinterpret_cast<FreeBlock*>(p);
    block->next = out.head;
    block->ahead = nullptr;
    out.head = block;
    ++out.count;
  }
  local.carve = local.carve_end = nullptr;
  return out;
}

struct LocalCache {
  std::array<LocalClass, kClassBytes.size()> classes{};
  ~LocalCache() {  // a thread ends: its blocks go to the others
    for (std::size_t c = 0; c < classes.size(); ++c) {
      if (classes[c].list.head) give_batch(c, std::exchange(classes[c].list, Batch{}));
      Batch rest = take_carve(c, classes[c]);
      if (rest.head) give_batch(c, rest);
    }
  }
};
thread_local LocalCache t_cache;

void new_chunk(std::size_t size_class, LocalClass& local) {
  Shared& s = shared(size_class);
  // max_align_t-aligned, so every block of a class that is a multiple of an
  // alignment is aligned to it (the smallest class holding a type is).
  auto* chunk = static_cast<char*>(::operator new(chunk_bytes(size_class)));
  try {
    std::lock_guard lock(s.mutex);
    s.chunks.push_back(chunk);
  } catch (...) {
    ::operator delete(chunk);
    throw;
  }
  local.carve = chunk;
  local.carve_end = chunk + chunk_bytes(size_class);
}

}  // namespace

void* allocate_block(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  LocalClass& local = t_cache.classes[c];
  if (!local.list.head) {
    if (local.carve != local.carve_end) {
      void* block = local.carve;
      local.carve += kClassBytes[c];
      return block;
    }
    Shared& s = shared(c);
    if (s.available.load(std::memory_order_relaxed) > 0) {
      std::lock_guard lock(s.mutex);
      if (!s.batches.empty()) {
        local.cut = nullptr;
        local.list = s.batches.back();
        s.batches.pop_back();
        s.available.store(s.batches.size(), std::memory_order_relaxed);
      }
    }
    if (!local.list.head) {
      new_chunk(c, local);
      void* block = local.carve;
      local.carve += kClassBytes[c];
      return block;
    }
  }
  FreeBlock* block = local.list.head;
  local.list.head = block->next;
  if (--local.list.count <= kBatch) local.cut = nullptr;  // it was `block` or below it
  // Blocks usually come back from another core: fetch the ones a few sends
  // ahead now rather than stall on each when it is written.
  if (block->ahead) prefetch_for_write(block->ahead);
  return block;
}

void deallocate_block(void* block, std::size_t bytes) noexcept {
  const std::size_t c = class_of(bytes);
  LocalClass& lc = t_cache.classes[c];
  Batch& local = lc.list;
  auto* freed = static_cast<FreeBlock*>(block);
  freed->next = local.head;
  // Freed kAhead frees ago: kAhead places down the list (it is a stack).
  FreeBlock*& slot = lc.recent[lc.freed++ % kAhead];
  freed->ahead = slot;
  slot = freed;
  local.head = freed;
  if (++local.count == kBatch + 1) lc.cut = freed;
  if (local.count < 2 * kBatch) return;
  // Keep one batch here, share the newest kBatch.
  FreeBlock* tail = lc.cut;
  if (!tail) {  // the list came whole from the shared ones: walk
    tail = local.head;
    for (std::size_t i = 1; i < kBatch; ++i) tail = tail->next;
  }
  lc.cut = nullptr;
  Batch out{local.head, kBatch};
  local.head = tail->next;
  local.count -= kBatch;
  tail->next = nullptr;
  give_batch(c, out);
}

void release_idle_blocks() noexcept {
  for (std::size_t c = 0; c < kClassBytes.size(); ++c) {
    LocalClass& local = t_cache.classes[c];
    Shared& s = shared(c);
    std::lock_guard lock(s.mutex);
    // Every idle block this thread can reach: its own and the shared ones.
    std::size_t total =
        local.list.count + static_cast<std::size_t>(local.carve_end - local.carve) / kClassBytes[c];
    for (const Batch& b : s.batches) total += b.count;
    std::vector<char*> idle, kept_chunks;
    try {  // everything that allocates, before anything changes
      idle.reserve(total);
      kept_chunks.reserve(s.chunks.size());
      s.batches.reserve(total / kBatch + 1);
    } catch (...) {
      continue;  // no memory to sort with: this class stays pooled as it is
    }
    auto collect = [&idle](FreeBlock* head) {
      for (; head; head = head->next) idle.push_back(reinterpret_cast<char*>(head));
    };
    local.cut = nullptr;
    collect(std::exchange(local.list, Batch{}).head);
    collect(take_carve(c, local).head);
    for (const Batch& b : s.batches) collect(b.head);
    s.batches.clear();
    std::sort(idle.begin(), idle.end());
    std::sort(s.chunks.begin(), s.chunks.end());
    // A chunk whose blocks are all idle goes back to the heap; the idle blocks
    // of the others are shared again.
    Batch batch{nullptr, 0};
    auto keep = [&](char* p) {
      auto* block = reinterpret_cast<FreeBlock*>(p);
      block->next = batch.head;
      block->ahead = nullptr;
      batch.head = block;
      if (++batch.count == kBatch) s.batches.push_back(std::exchange(batch, Batch{}));
    };
    auto it = idle.begin();
    for (char* chunk : s.chunks) {
      const char* end = chunk + chunk_bytes(c);
      auto first = it;
      while (it != idle.end() && *it < end) ++it;
      if (static_cast<std::size_t>(it - first) == chunk_blocks(c)) {
        ::operator delete(chunk);
      } else {
        for (auto p = first; p != it; ++p) keep(*p);
        kept_chunks.push_back(chunk);
      }
    }
    if (batch.head) s.batches.push_back(batch);
    s.chunks.swap(kept_chunks);
    s.available.store(s.batches.size(), std::memory_order_relaxed);
  }
}

#endif

}  // namespace mailroom::detail
