// MpscQueue: an unbounded FIFO for many producers and one consumer, without a
// lock. Producers link a node with one atomic exchange (Vyukov's intrusive
// MPSC design); the consumer walks the links. The counters make size() exact
// enough for inspection from any thread: it never goes negative and never
// misses a value whose push has returned. `Packing` chooses how a node holds a
// value (EnvelopePacking keeps a small envelope's node at 48 bytes). In a
// single-threaded build the atomics are plain variables (thread_policy.hpp).
//
//   any thread     push, size
//   consumer only  pop
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>
#include <optional>
#include <thread>
#include <utility>

#include "mailroom/detail/block_pool.hpp"
#include "mailroom/detail/packed_envelope.hpp"
#include "mailroom/detail/thread_policy.hpp"

namespace mailroom {

template <class T, class Packing = detail::NoPacking<T>>
class MpscQueue {
  using Stored = typename Packing::Stored;

 public:
  MpscQueue() : head_(make_node()), tail_(head_) {}
  ~MpscQueue() {
    while (pop()) {
    }
    destroy_node(head_);
  }
  MpscQueue(const MpscQueue&) = delete;
  MpscQueue& operator=(const MpscQueue&) = delete;

  // Any thread.
  void push(T value) {
    Node* node = make_node(Packing::pack(std::move(value)));
    // Counted before it is linked, so the consumer can never pop an uncounted
    // value (size() stays >= 0). Sequentially consistent: callers rely on it to
    // order the push before their next load (see Mailbox::
    // enqueue_is_sequentially_consistent); on x86 it is the same instruction.
    pushed_.fetch_add(1, std::memory_order_seq_cst);
    Node* previous = tail_.exchange(node, std::memory_order_acq_rel);
    previous->next.store(node, std::memory_order_release);
  }

  // Consumer only. Returns nothing only when no push has linearised beyond
  // what was already taken; a producer caught between its two steps is waited
  // for (a few instructions), so a value already counted is never skipped.
  std::optional<T> pop() {
    Node* head = head_;
    Node* next = head->next.load(std::memory_order_acquire);
    if (next == nullptr) {
      if (tail_.load(std::memory_order_acquire) == head) return std::nullopt;
      while ((next = head->next.load(std::memory_order_acquire)) == nullptr) {
        if constexpr (!detail::kSingleThreaded) std::this_thread::yield();
      }
    }
    // The node after this one was written on another core: start fetching it
    // now, while this value is processed, instead of stalling on it next pop.
    if (Node* after = next->next.load(std::memory_order_relaxed)) {
      __builtin_prefetch(after);
      __builtin_prefetch(reinterpret_cast<const char*>(after) + 64);
    }
    std::optional<T> value(Packing::unpack(std::move(next->value)));
    next->value.~Stored();
    head_ = next;  // `next` is the new stub: its value is gone
    destroy_node(head);
    popped_.store(popped_.load(std::memory_order_relaxed) + 1, std::memory_order_release);
    return value;
  }

  // Consumer only: anything to pop, without popping.
  bool empty_for_consumer() const noexcept {
    return head_->next.load(std::memory_order_acquire) == nullptr &&
           tail_.load(std::memory_order_acquire) == head_;
  }

  // Any thread: size() >= n, usually answered from the producers' cache line
  // alone. The consumer's count only grows, so an old reading of it gives an
  // upper bound on the size; only when that bound reaches n is it read afresh.
  bool size_at_least(std::size_t n) const noexcept {
    const std::uint64_t pushed = pushed_.load(std::memory_order_acquire);
    const std::uint64_t hint = popped_hint_.load(std::memory_order_relaxed);
    if (pushed - std::min(hint, pushed) < n) return false;
    const std::uint64_t popped = popped_.load(std::memory_order_acquire);
    popped_hint_.store(popped, std::memory_order_relaxed);
    return size() >= n;
  }

  // Any thread. Popped is read first: every pop it counts was of a value
  // already counted by pushed_, so the difference is never negative.
  std::size_t size() const noexcept {
    const std::uint64_t popped = popped_.load(std::memory_order_acquire);
    const std::uint64_t pushed = pushed_.load(std::memory_order_acquire);
    return pushed > popped ? static_cast<std::size_t>(pushed - popped) : 0;
  }

 private:
  // The value lives from push to pop only; the stub at head_ holds none. (A
  // union rather than std::optional: no flag, so a small envelope's node fits
  // in two cache lines.)
  struct Node {
    Node() {}
    explicit Node(Stored&& v) : value(std::move(v)) {}
    ~Node() {}
    detail::Atomic<Node*> next{nullptr};
    union {
      Stored value;
    };
  };
  template <class... Args>
  static Node* make_node(Args&&... args) {
    detail::PoolAllocator<Node> pool;
    Node* node = pool.allocate(1);
    try {
      return new (node) Node(std::forward<Args>(args)...);
    } catch (...) {
      pool.deallocate(node, 1);
      throw;
    }
  }
  static void destroy_node(Node* node) noexcept {
    node->~Node();
    detail::PoolAllocator<Node>().deallocate(node, 1);
  }

  // Two cache lines: the consumer writes head_/popped_, producers
  // tail_/pushed_, so neither side invalidates the other's line per message.
  alignas(64) Node* head_;
  detail::Atomic<std::uint64_t> popped_{0};
  alignas(64) detail::Atomic<Node*> tail_;
  detail::Atomic<std::uint64_t> pushed_{0};
  mutable detail::Atomic<std::uint64_t> popped_hint_{0};  // a past value of popped_
};

}  // namespace mailroom
