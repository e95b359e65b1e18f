#include "mailroom/detail/huge_pages.hpp"

#include <new>

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif

namespace mailroom::detail {

void* allocate_huge_region() {
  void* region = ::operator new (kHugeRegionBytes, std::align_val_t{kHugeRegionBytes});
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  // Advice only: without transparent huge pages the region is ordinary memory.
  static_cast<void>(madvise(region, kHugeRegionBytes, MADV_HUGEPAGE));
#endif
  return region;
}

void free_huge_region(void* region) noexcept {
  ::operator delete (region, std::align_val_t{kHugeRegionBytes});
}

}  // namespace mailroom::detail
