// The physical reference for one-to-one throughput: a bare single-producer /
// single-consumer lock-free ring between two threads, no actors, no allocation.
#pragma once

#include <cstddef>

namespace mailroom::bench {

void reference_spsc_handoff(std::size_t messages);

}  // namespace mailroom::bench
