// MpscQueue: an unbounded FIFO for many producers and one consumer, without a
// lock. Producers link a node with one atomic exchange (Vyukov's intrusive
// MPSC design); the consumer walks the links. `Packing` chooses how a node
// holds a value (EnvelopePacking keeps a small envelope's node at 48 bytes).
// In a single-threaded build the atomics are plain variables (thread_policy.hpp).
//
// Counting without a second locked instruction per push: the first producer
// threads to use a queue each claim a push counter of their own (kOwnedCounters
// of them, next to tail_) and bump it with a plain load and store; further
// threads share one atomic counter. The consumer counts its pops. What size()
// guarantees, from any thread:
//   - never negative: every pop it counts was of a value already counted;
//   - exact when the queue is quiescent, and it includes every push that
//     happens before the call (the caller's own, or one ordered by a fence or
//     a lock, as the actor cell's schedule/run handshake does: size() reads
//     tail_ after the caller's fence, and the exchange that linked the value
//     releases its counter's store);
//   - while pushes race it, a push in flight may or may not be counted.
// A producer asking size_at_least after its own push sees every push linked
// before its own (the exchanges form one chain), so a threshold is never
// stepped over unnoticed.
//
//   any thread     push, size, size_at_least
//   consumer only  pop, empty_for_consumer
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

  // Any thread. Returns an upper bound on size() just after this push that
  // counts every push linked before it (size_bound(), read while the
  // exchange has just brought the producers' line here: a sender's threshold
  // check then costs no second trip for that line, which other senders keep
  // taking away).
  std::uint64_t push(T&& value) {
    Node* node = make_node(typename Node::Pack{}, std::move(value));
    // Counted before it is linked, so the consumer can never pop an uncounted
    // value (size() stays >= 0).
    count_push();
    // Sequentially consistent: callers rely on it to order the push before
    // their next load (MessageQueue::enqueue_is_sequentially_consistent); on
    // x86 it is the same instruction as acq_rel.
    Node* previous = tail_.exchange(node, std::memory_order_seq_cst);
    const std::uint64_t bound = size_bound();
    previous->next.store(node, std::memory_order_release);
    return bound;
  }
  std::uint64_t push(const T& value) { return push(T(value)); }

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
    tail_.load(std::memory_order_acquire);  // orders the counters after the pushes it sees
    if (size_bound() < n) return false;
    const std::uint64_t popped = popped_.load(std::memory_order_acquire);
    popped_hint_.store(popped, std::memory_order_relaxed);
    return size() >= n;
  }

  // Any thread. Popped is read first: every pop it counts was of a value
  // already counted, so the difference is never negative. Then tail_: an
  // acquire load of it synchronises with every exchange up to the one it
  // reads, whose counters were stored before it.
  std::size_t size() const noexcept {
    const std::uint64_t popped = popped_.load(std::memory_order_acquire);
    tail_.load(std::memory_order_acquire);
    const std::uint64_t pushed = pushed_total();
    return pushed > popped ? static_cast<std::size_t>(pushed - popped) : 0;
  }

 private:
  // The value lives from push to pop only; the stub at head_ holds none. (A
  // union rather than std::optional: no flag, so a small envelope's node fits
  // in two cache lines.)
  struct Node {
    Node() {}
    struct Pack {};
    // Packed straight into the node: no intermediate Stored to move.
    Node(Pack, T&& v) : value(Packing::pack(std::move(v))) {}
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

  // A producer thread's identity for the owned counters: never 0, never reused.
  static std::uint64_t producer_token() noexcept {
    static detail::Atomic<std::uint64_t> next{0};
    thread_local std::uint64_t token = 0;
    if (token == 0) token = next.fetch_add(1, std::memory_order_relaxed) + 1;
    return token;
  }

  // Only the owning thread writes an owned counter, so a plain load and store
  // do (no lock prefix); the line is the one the exchange just took anyway.
  void count_push() noexcept {
    const std::uint64_t me = producer_token();
    for (OwnedCounter& counter : owned_) {
      std::uint64_t owner = counter.owner.load(std::memory_order_relaxed);
      if (owner != me) {
        if (owner != 0 ||
            !counter.owner.compare_exchange_strong(owner, me, std::memory_order_relaxed)) {
          continue;
        }
      }
      counter.pushes.store(counter.pushes.load(std::memory_order_relaxed) + 1,
                           std::memory_order_relaxed);
      return;
    }
    shared_pushed_.fetch_add(1, std::memory_order_relaxed);
  }

  // Pushes counted minus a past count of pops: never below size() as of the
  // pushes it counts.
  std::uint64_t size_bound() const noexcept {
    const std::uint64_t pushed = pushed_total();
    const std::uint64_t hint = popped_hint_.load(std::memory_order_relaxed);
    return pushed - std::min(hint, pushed);
  }

  std::uint64_t pushed_total() const noexcept {
    std::uint64_t total = shared_pushed_.load(std::memory_order_relaxed);
    for (const OwnedCounter& counter : owned_) {
      total += counter.pushes.load(std::memory_order_relaxed);
    }
    return total;
  }

  struct OwnedCounter {
    detail::Atomic<std::uint64_t> owner{0};  // a producer_token(), 0 while free
    detail::Atomic<std::uint64_t> pushes{0};
  };
  static constexpr std::size_t kOwnedCounters = 2;

  // Two cache lines: the consumer writes head_/popped_, producers tail_ and
  // the push counters, so neither side invalidates the other's line per message.
  alignas(64) Node* head_;
  detail::Atomic<std::uint64_t> popped_{0};
  alignas(64) detail::Atomic<Node*> tail_;
  detail::Atomic<std::uint64_t> shared_pushed_{0};        // pushes by threads without a counter
  mutable detail::Atomic<std::uint64_t> popped_hint_{0};  // a past value of popped_
  OwnedCounter owned_[kOwnedCounters];
};

}  // namespace mailroom
