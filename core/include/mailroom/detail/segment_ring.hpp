// SegmentRing: the FIFO of one priority store bucket (one distinct priority),
// values side by side in fixed segments taken from, and given back to, a
// SegmentPool that the store's buckets share. The ring it replaces doubled one
// buffer, copying its whole backlog (cold) at each doubling: at a million
// queued messages those copies were most of the cache misses. Here a push
// writes the tail segment, a pop reads the head one, nothing is ever moved,
// and an emptied head segment goes to the pool, where the next tail that needs
// a segment takes it while it is still in cache: the working set is the head
// and the tails, whatever the backlog. Not thread-safe.
#pragma once

#include <cstddef>
#include <new>
#include <optional>
#include <utility>

namespace mailroom::detail {

template <class T>
struct RingSegment {
  static constexpr std::size_t kItems = 64;
  RingSegment* next = nullptr;
  RingSegment* prev = nullptr;
  alignas(T) unsigned char bytes[kItems * sizeof(T)];
  T* slot(std::size_t i) noexcept {
    return std::launder(reinterpret_cast<T*>(bytes + i * sizeof(T)));
  }
};

// Emptied segments, newest first (the one most likely still in cache), up to
// kKeep; more go back to the heap so a drained burst does not stay allocated.
template <class T>
class SegmentPool {
 public:
  using Segment = RingSegment<T>;
  static constexpr std::size_t kKeep = 16;

  SegmentPool() = default;
  SegmentPool(const SegmentPool&) = delete;
  SegmentPool& operator=(const SegmentPool&) = delete;
  ~SegmentPool() {
    while (free_ != nullptr) delete std::exchange(free_, free_->next);
  }

  Segment* take() {
    if (free_ == nullptr) return new Segment;  // slots left raw: constructed on push
    Segment* s = std::exchange(free_, free_->next);
    --kept_;
    s->next = nullptr;
    return s;
  }
  void give(Segment* s) noexcept {
    if (kept_ == kKeep) {
      delete s;
      return;
    }
    s->prev = nullptr;
    s->next = free_;
    free_ = s;
    ++kept_;
  }
  std::size_t kept() const noexcept { return kept_; }

 private:
  Segment* free_ = nullptr;
  std::size_t kept_ = 0;
};

template <class T>
class SegmentRing {
 public:
  using Pool = SegmentPool<T>;
  using Segment = RingSegment<T>;
  static constexpr std::size_t kItems = Segment::kItems;

  SegmentRing() = default;
  SegmentRing(SegmentRing&& other) noexcept { take_from(other); }
  SegmentRing& operator=(SegmentRing&& other) noexcept {
    if (this != &other) {
      destroy();
      take_from(other);
    }
    return *this;
  }
  SegmentRing(const SegmentRing&) = delete;
  SegmentRing& operator=(const SegmentRing&) = delete;
  ~SegmentRing() { destroy(); }  // straight to the heap: the pool may be gone

  bool empty() const noexcept { return count_ == 0; }
  std::size_t size() const noexcept { return count_; }

  void push_back(Pool& pool, T value) {
    if (tail_ == nullptr) {
      head_ = tail_ = pool.take();
      begin_ = end_ = 0;
    } else if (end_ == kItems) {
      Segment* next = pool.take();
      next->prev = tail_;
      tail_->next = next;
      tail_ = next;
      end_ = 0;
    }
    ::new (static_cast<void*>(tail_->slot(end_))) T(std::move(value));
    ++end_;
    ++count_;
  }

  // Only when not empty.
  T pop_front(Pool& pool) {
    T* slot = head_->slot(begin_);
    T out(std::move(*slot));
    slot->~T();
    --count_;
    ++begin_;
    if (count_ == 0) {
      pool.give(head_);
      head_ = tail_ = nullptr;
      begin_ = end_ = 0;
    } else if (begin_ == kItems) {
      Segment* used = head_;
      head_ = head_->next;
      head_->prev = nullptr;
      begin_ = 0;
      pool.give(used);
    } else if (begin_ == kItems - kPrefetchAhead && head_->next != nullptr) {
      // The next segment is another allocation, where the hardware's stream
      // prefetch (within a page) does not follow: ask for its first lines.
      for (std::size_t i = 0; i < kPrefetchAhead; ++i) __builtin_prefetch(head_->next->slot(i));
    }
    return out;
  }

  // From the back: the last value `wanted` accepts, removed (the later ones
  // move down one place, keeping their order). O(distance from the back).
  template <class Predicate>
  std::optional<T> take_last_if(Pool& pool, Predicate wanted) {
    Segment* seg = tail_;
    std::size_t i = end_;
    for (std::size_t left = count_; left > 0; --left) {
      if (i == 0) {
        seg = seg->prev;
        i = kItems;
      }
      --i;
      if (!wanted(*seg->slot(i))) continue;
      std::optional<T> out(std::move(*seg->slot(i)));
      // Shift everything after (seg, i) down by one.
      while (seg != tail_ || i + 1 < end_) {
        Segment* from_seg = seg;
        std::size_t from = i + 1;
        if (from == kItems) {
          from_seg = seg->next;
          from = 0;
        }
        *seg->slot(i) = std::move(*from_seg->slot(from));
        seg = from_seg;
        i = from;
      }
      drop_back(pool);
      return out;
    }
    return std::nullopt;
  }

 private:
  static constexpr std::size_t kPrefetchAhead = 4;

  // Destroys the (moved-from) last value.
  void drop_back(Pool& pool) noexcept {
    tail_->slot(end_ - 1)->~T();
    --end_;
    --count_;
    if (count_ == 0) {
      pool.give(tail_);
      head_ = tail_ = nullptr;
      begin_ = end_ = 0;
    } else if (end_ == 0) {
      Segment* used = tail_;
      tail_ = tail_->prev;
      tail_->next = nullptr;
      end_ = kItems;
      pool.give(used);
    }
  }

  void take_from(SegmentRing& other) noexcept {
    head_ = std::exchange(other.head_, nullptr);
    tail_ = std::exchange(other.tail_, nullptr);
    begin_ = std::exchange(other.begin_, 0);
    end_ = std::exchange(other.end_, 0);
    count_ = std::exchange(other.count_, 0);
  }

  void destroy() noexcept {
    while (head_ != nullptr) {
      const std::size_t last = head_ == tail_ ? end_ : kItems;
      for (std::size_t i = begin_; i < last; ++i) head_->slot(i)->~T();
      delete std::exchange(head_, head_->next);
      begin_ = 0;
    }
    tail_ = nullptr;
    begin_ = end_ = count_ = 0;
  }

  Segment* head_ = nullptr;  // oldest values, from begin_
  Segment* tail_ = nullptr;  // newest values, up to end_
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  std::size_t count_ = 0;
};

}  // namespace mailroom::detail
