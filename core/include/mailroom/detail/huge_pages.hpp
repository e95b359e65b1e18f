// Huge-page regions for large arrays read at random: the ladder queue's value
// slab, where a million values over 12,000 4 KB pages made most pops miss the
// TLB as well as the cache. A region is 2 MB, aligned to 2 MB, and on Linux
// the kernel is asked (madvise MADV_HUGEPAGE, honoured when transparent huge
// pages are "always" or "madvise") to back it with one huge page. Elsewhere
// (wasm, other systems) kHugeRegions is false and callers keep small blocks.
#pragma once

#include <cstddef>

namespace mailroom::detail {

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
inline constexpr bool kHugeRegions = true;
#else
inline constexpr bool kHugeRegions = false;
#endif
inline constexpr std::size_t kHugeRegionBytes = std::size_t{1} << 21;

// kHugeRegionBytes, aligned to them; throws std::bad_alloc.
void* allocate_huge_region();
void free_huge_region(void* region) noexcept;

}  // namespace mailroom::detail
