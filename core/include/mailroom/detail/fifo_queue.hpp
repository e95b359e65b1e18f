// FifoQueue: the mailboxes' unbounded FIFO. Lock-free many-producer MpscQueue
// in a multi-threaded build; in a single-threaded one (wasm, thread_policy.hpp)
// SegmentQueue, which has no node to allocate and link per message.
#pragma once

#include <type_traits>

#include "mailroom/detail/mpsc_queue.hpp"
#include "mailroom/detail/segment_queue.hpp"
#include "mailroom/detail/thread_policy.hpp"

namespace mailroom::detail {

template <class T, class Packing = NoPacking<T>>
using FifoQueue =
    std::conditional_t<kSingleThreaded, SegmentQueue<T, Packing>, MpscQueue<T, Packing>>;

}  // namespace mailroom::detail
