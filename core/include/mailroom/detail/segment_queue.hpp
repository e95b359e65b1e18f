// SegmentQueue: the unbounded FIFO of a single-threaded build (wasm), with
// MpscQueue's interface. There the host's thread is the only producer and the
// only consumer, so no node needs linking per message: values sit side by side
// in fixed segments of kSegmentItems, a push writes the next slot, a pop reads
// the oldest, and a segment is allocated once per kSegmentItems messages
// (emptied ones are kept for the next pushes, up to kMaxSpareSegments; the
// rest go back to the allocator as the queue drains). Per message that saves
// the node's allocation and free (two calls into the block pool) and the
// stub-node juggling, and a small envelope costs its packed size (20 bytes in wasm)
// instead of a 40-byte node. Native builds use MpscQueue; both are tested
// natively (segment_queue_test.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "mailroom/detail/packed_envelope.hpp"

namespace mailroom {

template <class T, class Packing = detail::NoPacking<T>>
class SegmentQueue {
  using Stored = typename Packing::Stored;

 public:
  static constexpr std::size_t kSegmentItems = 32;
  // Emptied segments kept for reuse: a queue that fills and drains by up to
  // ~150 messages at a time allocates nothing once warm, and one that queued
  // a million once keeps only this many after it drained (4 x 644 bytes in
  // wasm, per mailbox, however many actors once had a burst). They are freed
  // by trim() and with the queue (its actor's mailbox: when the actor stops,
  // at the latest when its system terminates).
  static constexpr std::size_t kMaxSpareSegments = 4;

  SegmentQueue() = default;
  ~SegmentQueue() {
    while (pop()) {
    }
    release(head_);
    trim();
  }
  SegmentQueue(const SegmentQueue&) = delete;
  SegmentQueue& operator=(const SegmentQueue&) = delete;

  // By rvalue reference, as MpscQueue: inlined into the mailbox's push, the
  // envelope moves once, from the sender's into the slot.
  // Returns the size after it (MpscQueue returns a bound on it).
  std::uint64_t push(T&& value) {
    if (tail_ == nullptr) {
      head_ = tail_ = take_segment();
    } else if (tail_end_ == kSegmentItems) {
      Segment* next = take_segment();
      tail_->next = next;
      tail_ = next;
      tail_end_ = 0;
    }
    new (tail_->slot(tail_end_)) Stored(Packing::pack(std::move(value)));
    ++tail_end_;
    return ++size_;
  }
  std::uint64_t push(const T& value) { return push(T(value)); }

  std::optional<T> pop() {
    if (size_ == 0) return std::nullopt;
    Stored* slot = head_->slot(head_begin_);
    std::optional<T> value(Packing::unpack(std::move(*slot)));
    slot->~Stored();
    --size_;
    if (++head_begin_ == kSegmentItems || size_ == 0) advance_head();
    return value;
  }

  bool empty_for_consumer() const noexcept { return size_ == 0; }
  bool size_at_least(std::size_t n) const noexcept { return size_ >= n; }
  std::size_t size() const noexcept { return size_; }
  std::size_t spare_segments() const noexcept { return spare_count_; }

  // Frees the kept segments (the queue's own memory shrinks to what it holds).
  void trim() noexcept {
    while (spares_ != nullptr) release(std::exchange(spares_, spares_->next));
    spare_count_ = 0;
  }

 private:
  struct Segment {
    Segment* next = nullptr;
    alignas(Stored) unsigned char bytes[kSegmentItems * sizeof(Stored)];
    Stored* slot(std::size_t i) noexcept {
      return std::launder(reinterpret_cast<Stored*>(bytes + i * sizeof(Stored)));
    }
  };

  // The head segment is used up (or the queue just emptied): move on, keeping
  // the emptied segment for a later push if there is room among the spares.
  void advance_head() noexcept {
    if (size_ == 0) {
      // Empty (so head_ == tail_): reuse it in place, its slots are all destroyed.
      head_begin_ = 0;
      tail_end_ = 0;
      head_->next = nullptr;
      return;
    }
    Segment* used = head_;
    head_ = head_->next;
    head_begin_ = 0;
    if (spare_count_ == kMaxSpareSegments) {
      release(used);
      return;
    }
    used->next = spares_;
    spares_ = used;
    ++spare_count_;
  }
  Segment* take_segment() {
    if (spares_ == nullptr) {
      // Default-initialised (not `new Segment()`): the slots are raw storage
      // a push constructs in, so zeroing them first would only write every
      // byte twice (a million queued messages are ~20 MB of segments in wasm).
      return new Segment;
    }
    Segment* segment = std::exchange(spares_, spares_->next);
    segment->next = nullptr;
    --spare_count_;
    return segment;
  }
  static void release(Segment* segment) noexcept { delete segment; }

  Segment* head_ = nullptr;    // oldest values, from head_begin_
  Segment* tail_ = nullptr;    // newest values, up to tail_end_
  Segment* spares_ = nullptr;  // a list through next, spare_count_ long
  std::size_t spare_count_ = 0;
  std::size_t head_begin_ = 0;
  std::size_t tail_end_ = 0;
  std::size_t size_ = 0;
};

}  // namespace mailroom
