// JsValue: a JS value carried inside a core Message by its slot in the JS value
// slab (wasm/js/value_slab.js), so the very object a JS caller sent is what a
// receiver, a drop observer or a dead-letter entry sees, and no embind handle
// exists per message. It travels inside the Message (4 bytes, no box; see
// TriviallyRelocatable below). Copies share the slot: a copy counts itself in
// a side table (copies are rare: a dead-letter capture, a drop report), and
// the slab frees the slot when the last one is destroyed, in batches
// (flush_released_slots).
#pragma once

#include <emscripten/val.h>

#include <cstdint>
#include <string>

#include "mailroom/message.hpp"

namespace mailroom::wasm {

class JsValue {
 public:
  // Takes over a slot JS filled (the hot path: no embind).
  explicit JsValue(std::uint32_t slot) noexcept : slot_(slot) {}
  // Puts a value into a fresh slot (slow paths: codecs, conversions).
  explicit JsValue(const emscripten::val& value);
  JsValue(JsValue&& other) noexcept : slot_(other.slot_) { other.slot_ = kNone; }
  // Another owner of the same slot (the same value, not a new one).
  JsValue(const JsValue& other) noexcept;
  JsValue& operator=(const JsValue&) = delete;
  JsValue& operator=(JsValue&&) = delete;
  ~JsValue();

  std::uint32_t slot() const noexcept { return slot_; }
  // The JS value itself (an embind handle: for slow paths only).
  emscripten::val value() const;
  // Its JS class name (js_class_name), without an embind handle.
  std::string class_name() const;

 private:
  static constexpr std::uint32_t kNone = 0xffffffffu;
  std::uint32_t slot_;
};

// A JS number told as it is (ref.tell(42)): the double travels inside the
// Message and crosses as a double both ways, so a number never takes a slab
// slot. A primitive has no identity beyond its value (-0 and NaN kept, the
// bits are the value), so it is still "the very value sent".
struct JsNumber {
  double value;
};

// Hands the slots freed since the last flush to the slab (the driver does it
// after every slice; value_slab.js before it counts).
void flush_released_slots() noexcept;

// The JS class name of a value (constructor name, or typeof for a primitive).
std::string js_class_name(const emscripten::val& value);

}  // namespace mailroom::wasm

namespace mailroom {

// Inspection, metrics labels and degraded dead letters name a JS message by its
// JS class, not by "mailroom::wasm::JsValue".
template <>
struct MessageTraits<wasm::JsValue> {
  static std::string type_name(const wasm::JsValue& v) { return v.class_name(); }
};

template <>
struct MessageTraits<wasm::JsNumber> {
  static std::string type_name(const wasm::JsNumber&) { return "number"; }
};

// A slot number with counted copies: a Message may move it as bytes.
template <>
struct TriviallyRelocatable<wasm::JsValue> : std::true_type {};

}  // namespace mailroom
