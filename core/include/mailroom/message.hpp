// Message: an immutable, type-erased, cheaply copyable value (any C++ type).
//
// Small trivially copyable values (an int, a double, an enum, a pointer, a
// struct of up to 8 bytes) live inside the Message itself: sending one
// allocates nothing beyond the queue node that carries it. So does a small
// handle type that opts in through TriviallyRelocatable (its copies and its
// destruction run its own code; a move only moves its bytes). Anything else
// is boxed once, and copies share the box through an intrusive count (atomic
// unless the build is single-threaded); moving a Message never touches it.
//
// identity() tells whether two messages are the very same send (used for
// "same entry" tracking in the dead-letter queue): copies of a boxed value
// share it; an inline value's identity is the Message object holding it, so
// there a copy is a different identity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "mailroom/detail/block_pool.hpp"
#include "mailroom/detail/thread_policy.hpp"

namespace mailroom {

std::string demangle(const char* mangled_name);

// Customisation point: how a message type names itself (inspection, metrics
// labels, degraded dead letters). The wasm layer specialises it for JS values.
template <class T>
struct MessageTraits {
  static std::string type_name(const T&) { return demangle(typeid(T).name()); }
};

// Customisation point: a type that is not trivially copyable but whose bytes
// may be moved to another address (the old place then simply forgotten, never
// destroyed) opts in here to travel inside a Message when it fits, with its
// nothrow copy constructor and destructor run for each copy. For handles whose
// copies are counted elsewhere (the wasm layer's JS value slot): no box, no
// allocation per message.
template <class T>
struct TriviallyRelocatable : std::false_type {};

class Message {
  static constexpr std::size_t kInlineBytes = 8;

  template <class T>
  static constexpr bool fits_inline = sizeof(T) <= kInlineBytes && alignof(T) <= kInlineBytes;
  // Inline with its own copy and destruction (TriviallyRelocatable).
  template <class T>
  static constexpr bool handle_inline =
      std::conjunction_v<std::negation<std::is_trivially_copyable<T>>, TriviallyRelocatable<T>,
                         std::is_nothrow_copy_constructible<T>, std::is_nothrow_destructible<T>,
                         std::bool_constant<fits_inline<T>>>;

 public:
  // True when a T travels inside the Message (no box, no allocation).
  template <class T>
  static constexpr bool stores_inline =
      std::conjunction_v<std::is_trivially_copyable<T>, std::is_copy_constructible<T>,
                         std::bool_constant<fits_inline<T>>> ||
      handle_inline<T>;

  Message() noexcept = default;

  template <class T, class D = std::decay_t<T>,
            class = std::enable_if_t<!std::is_same_v<D, Message>>>
  Message(T&& value)  // NOLINT(google-explicit-constructor): tell(x) must just work
  {
    if constexpr (stores_inline<D>) {
      ::new (static_cast<void*>(storage_.bytes)) D(std::forward<T>(value));
    } else {
      storage_.box = make_box<D>(std::forward<T>(value));
    }
    ops_ = &kOps<D>;  // last: a throwing constructor leaves an empty Message
  }

  Message(const Message& other) noexcept : ops_(other.ops_), storage_(other.storage_) {
    if (!trivial()) {
      if (ops_->copy_handle != nullptr) {
        ops_->copy_handle(other.storage_.bytes, storage_.bytes);
      } else {
        storage_.box->retain();
      }
    }
  }
  Message(Message&& other) noexcept : ops_(other.ops_), storage_(other.storage_) {
    other.ops_ = nullptr;
  }
  Message& operator=(const Message& other) noexcept {
    Message copy(other);
    swap(copy);
    return *this;
  }
  Message& operator=(Message&& other) noexcept {
    Message moved(std::move(other));
    swap(moved);
    return *this;
  }
  ~Message() {
    if (trivial()) return;
    if (ops_->destroy_handle != nullptr) {
      ops_->destroy_handle(storage_.bytes);
    } else if (storage_.box->release()) {
      ops_->destroy_box(storage_.box);
    }
  }
  void swap(Message& other) noexcept {
    std::swap(ops_, other.ops_);
    std::swap(storage_, other.storage_);
  }

  bool has_value() const noexcept { return ops_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }

  std::type_index type() const noexcept {
    return ops_ ? std::type_index(*ops_->info) : std::type_index(typeid(void));
  }
  std::string type_name() const { return ops_ ? ops_->type_name(*this) : std::string("<empty>"); }

  // Compares one per-type address: the runtime asks this several times per
  // message (PoisonPill? Kill? Terminated?).
  template <class T>
  bool is() const noexcept {
    return ops_ == &kOps<std::remove_cv_t<T>>;
  }
  template <class T>
  const T* get_if() const noexcept {
    using D = std::remove_cv_t<T>;
    if (!is<D>()) return nullptr;
    if constexpr (stores_inline<D>) {
      return std::launder(reinterpret_cast<const D*>(storage_.bytes));
    } else {
      return &static_cast<const Box<D>*>(storage_.box)->value;
    }
  }
  // Throws std::bad_cast when the message holds another type.
  template <class T>
  const T& get() const {
    if (const T* p = get_if<T>()) return *p;
    throw std::bad_cast();
  }

  // The same send (this message, or a copy of a boxed one) — not value equality.
  const void* identity() const noexcept {
    if (!ops_) return nullptr;
    return ops_->inline_value ? static_cast<const void*>(storage_.bytes)
                              : static_cast<const void*>(storage_.box);
  }

 private:
  struct BoxBase {
    void retain() noexcept { refs.fetch_add(1, std::memory_order_relaxed); }
    // True when this was the last reference.
    bool release() noexcept { return refs.fetch_sub(1, std::memory_order_acq_rel) == 1; }
    detail::Atomic<std::uint32_t> refs{1};
  };
  template <class T>
  struct Box final : BoxBase {
    template <class U>
    explicit Box(U&& v) : value(std::forward<U>(v)) {}
    T value;
  };
  // One table per type; its address is the type's tag.
  struct Ops {
    const std::type_info* info;
    bool inline_value;
    bool trivial;  // inline and trivially copyable: copy and destruction do nothing
    std::string (*type_name)(const Message&);
    void (*destroy_box)(BoxBase*) noexcept;
    // A TriviallyRelocatable handle's own copy (into raw bytes) and destruction.
    void (*copy_handle)(const unsigned char* from, unsigned char* to) noexcept;
    void (*destroy_handle)(unsigned char* bytes) noexcept;
  };
  template <class T>
  static std::string name_of(const Message& m) {
    return MessageTraits<T>::type_name(*m.get_if<T>());
  }
  template <class T>
  static void destroy(BoxBase* base) noexcept {
    auto* box = static_cast<Box<T>*>(base);
    box->~Box<T>();
    detail::PoolAllocator<Box<T>>().deallocate(box, 1);
  }
  template <class T, class U>
  static BoxBase* make_box(U&& value) {
    detail::PoolAllocator<Box<T>> pool;
    Box<T>* box = pool.allocate(1);
    try {
      return ::new (static_cast<void*>(box)) Box<T>(std::forward<U>(value));
    } catch (...) {
      pool.deallocate(box, 1);
      throw;
    }
  }
  template <class T>
  static void copy_handle(const unsigned char* from, unsigned char* to) noexcept {
    ::new (static_cast<void*>(to)) T(*std::launder(reinterpret_cast<const T*>(from)));
  }
  template <class T>
  static void destroy_handle(unsigned char* bytes) noexcept {
    std::launder(reinterpret_cast<T*>(bytes))->~T();
  }
  template <class T>
  static constexpr Ops kOps{&typeid(T),
                            stores_inline<T>,
                            stores_inline<T> && !handle_inline<T>,
                            &name_of<T>,
                            stores_inline<T> ? nullptr : &destroy<T>,
                            handle_inline<T> ? &copy_handle<T> : nullptr,
                            handle_inline<T> ? &destroy_handle<T> : nullptr};

  // Empty, or inline and trivially copyable.
  bool trivial() const noexcept { return ops_ == nullptr || ops_->trivial; }

  const Ops* ops_ = nullptr;
  union Storage {
    BoxBase* box;
    alignas(kInlineBytes) unsigned char bytes[kInlineBytes];
  } storage_{};
};

}  // namespace mailroom
