// Thread policy: what the core's lock-free parts use for atomics, fences and
// locks. A multi-threaded build uses the std:: types. A single-threaded build
// (MAILROOM_SINGLE_THREADED, set by CMake for Emscripten, where the
// host-driven dispatcher is the only thread) uses plain variables with the
// same interface: no atomic read-modify-writes, no fences, no lock calls, and
// the compiler may keep the values in registers.
#pragma once

#include <atomic>
#include <mutex>

namespace mailroom::detail {

#if defined(MAILROOM_SINGLE_THREADED) && MAILROOM_SINGLE_THREADED

inline constexpr bool kSingleThreaded = true;

// std::atomic's interface over a plain T; memory orders are accepted and ignored.
template <class T>
class Atomic {
 public:
  constexpr Atomic() noexcept : value_() {}
  constexpr Atomic(T value) noexcept : value_(value) {}  // NOLINT(google-explicit-constructor)
  Atomic(const Atomic&) = delete;
  Atomic& operator=(const Atomic&) = delete;

  T load(std::memory_order = std::memory_order_seq_cst) const noexcept { return value_; }
  void store(T value, std::memory_order = std::memory_order_seq_cst) noexcept { value_ = value; }
  T exchange(T value, std::memory_order = std::memory_order_seq_cst) noexcept {
    T old = value_;
    value_ = value;
    return old;
  }
  T fetch_add(T delta, std::memory_order = std::memory_order_seq_cst) noexcept {
    T old = value_;
    value_ = static_cast<T>(value_ + delta);
    return old;
  }
  T fetch_sub(T delta, std::memory_order = std::memory_order_seq_cst) noexcept {
    T old = value_;
    value_ = static_cast<T>(value_ - delta);
    return old;
  }
  bool compare_exchange_strong(T& expected, T desired,
                               std::memory_order = std::memory_order_seq_cst,
                               std::memory_order = std::memory_order_seq_cst) noexcept {
    if (value_ == expected) {
      value_ = desired;
      return true;
    }
    expected = value_;
    return false;
  }
  bool compare_exchange_weak(T& expected, T desired,
                             std::memory_order order = std::memory_order_seq_cst,
                             std::memory_order failure = std::memory_order_seq_cst) noexcept {
    return compare_exchange_strong(expected, desired, order, failure);
  }

 private:
  T value_;
};

inline void fence(std::memory_order) noexcept {}

// A lock nobody else can contend.
class Mutex {
 public:
  void lock() noexcept {}
  void unlock() noexcept {}
  bool try_lock() noexcept { return true; }
};

#else

inline constexpr bool kSingleThreaded = false;

template <class T>
using Atomic = std::atomic<T>;

inline void fence(std::memory_order order) noexcept {
  std::atomic_thread_fence(order);
}

using Mutex = std::mutex;

#endif

}  // namespace mailroom::detail
