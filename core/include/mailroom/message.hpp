// Message: an immutable, type-erased, cheaply copyable value (any C++ type).
// Copies share the same boxed value, so identity() tells whether two messages
// are the very same send (used for "same entry" tracking in the dead-letter queue).
#pragma once

#include <memory>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>

#include "mailroom/detail/block_pool.hpp"

namespace mailroom {

std::string demangle(const char* mangled_name);

// Customisation point: how a message type names itself (inspection, metrics
// labels, degraded dead letters). The wasm layer specialises it for JS values.
template <class T>
struct MessageTraits {
  static std::string type_name(const T&) { return demangle(typeid(T).name()); }
};

class Message {
 public:
  Message() = default;

  template <class T, class D = std::decay_t<T>,
            class = std::enable_if_t<!std::is_same_v<D, Message>>>
  Message(T&& value)  // NOLINT(google-explicit-constructor): tell(x) must just work
      : box_(std::allocate_shared<Box<D>>(detail::PoolAllocator<Box<D>>(),
                                          std::forward<T>(value))) {}

  bool has_value() const noexcept { return box_ != nullptr; }
  explicit operator bool() const noexcept { return has_value(); }

  std::type_index type() const noexcept {
    return box_ ? box_->type() : std::type_index(typeid(void));
  }
  std::string type_name() const { return box_ ? box_->type_name() : std::string("<empty>"); }

  // Compares a per-type address, not type_info names: the runtime asks this
  // several times per message (PoisonPill? Kill? Terminated?).
  template <class T>
  bool is() const noexcept {
    return box_ && box_->tag == &kTypeTag<std::remove_cv_t<T>>;
  }
  template <class T>
  const T* get_if() const noexcept {
    return is<T>() ? &static_cast<const Box<T>*>(box_.get())->value : nullptr;
  }
  // Throws std::bad_cast when the message holds another type.
  template <class T>
  const T& get() const {
    if (const T* p = get_if<T>()) return *p;
    throw std::bad_cast();
  }

  // Same boxed value (the same send, or a copy of it) — not value equality.
  const void* identity() const noexcept { return box_.get(); }

 private:
  template <class T>
  static constexpr char kTypeTag = 0;  // one address per type in the program

  struct BoxBase {
    explicit BoxBase(const void* type_tag) : tag(type_tag) {}
    virtual ~BoxBase() = default;
    virtual std::type_index type() const noexcept = 0;
    virtual std::string type_name() const = 0;
    const void* tag;
  };
  template <class T>
  struct Box final : BoxBase {
    template <class U>
    explicit Box(U&& v) : BoxBase(&kTypeTag<T>), value(std::forward<U>(v)) {}
    std::type_index type() const noexcept override { return typeid(T); }
    std::string type_name() const override { return MessageTraits<T>::type_name(value); }
    T value;
  };
  std::shared_ptr<const BoxBase> box_;
};

}  // namespace mailroom
