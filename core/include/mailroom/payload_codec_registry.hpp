// PayloadCodecRegistry: how the persistent dead-letter store turns a Message
// into tagged JSON and back. A C++ type is encodable once a codec is
// registered for it; anything else (and a codec that throws) yields a
// degraded result naming the type and the reason, never a corrupted record.
// The wasm layer plugs JS values in through set_fallback.
#pragma once

#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <typeindex>
#include <unordered_map>
#include <utility>

#include <nlohmann/json.hpp>

#include "mailroom/message.hpp"

namespace mailroom {

class PayloadCodecRegistry {
 public:
  // A payload as stored: {"t": tag, "v": value}.
  struct Tagged {
    std::string tag;
    nlohmann::json value;
  };
  // The same as JSON text: what a journal record holds. A codec that makes
  // text itself (the JS codec's JSON.stringify) hands it over as it is.
  struct TaggedText {
    std::string tag;
    std::string text;
  };
  struct Degraded {
    std::string class_name;
    std::string reason;
  };
  struct EncodeResult {
    std::optional<Tagged> tagged;  // set when encoding succeeded
    Degraded degraded;             // otherwise: why not
    bool ok() const noexcept { return tagged.has_value(); }
  };
  struct EncodeTextResult {
    std::optional<TaggedText> tagged;  // set when encoding succeeded
    Degraded degraded;                 // otherwise: why not
    bool ok() const noexcept { return tagged.has_value(); }
  };
  struct DecodeResult {
    std::optional<Message> message;  // set when decoding succeeded
    std::string reason;              // otherwise: why not
    bool ok() const noexcept { return message.has_value(); }
  };

  // Fallback for types without a registered codec. encode returns nullopt for
  // "not mine" and may throw to refuse with a reason (a JS function, a cycle);
  // decode returns nullopt for an unknown tag.
  using FallbackEncode = std::function<std::optional<Tagged>(const Message&)>;
  using FallbackDecode =
      std::function<std::optional<Message>(const std::string& tag, const nlohmann::json&)>;

  // Registers T under tag (replacing an earlier codec for T or for tag).
  template <class T>
  void add(std::string tag, std::function<nlohmann::json(const T&)> encode,
           std::function<T(const nlohmann::json&)> decode) {
    Codec codec;
    codec.tag = tag;
    codec.encode = [encode = std::move(encode)](const Message& m) { return encode(m.get<T>()); };
    codec.decode = [decode = std::move(decode)](const nlohmann::json& j) {
      return Message(decode(j));
    };
    insert(std::type_index(typeid(T)), std::move(codec));
  }

  void set_fallback(FallbackEncode encode, FallbackDecode decode);
  // A fallback encoder that makes JSON text (same contract as FallbackEncode).
  // encode_text() carries its text into the record after a validating scan
  // (no DOM, no re-dump); encode() parses it. Used when no FallbackEncode is set.
  using FallbackEncodeText = std::function<std::optional<TaggedText>(const Message&)>;
  void set_fallback_text(FallbackEncodeText encode);

  // Thread-safe. Never throws.
  EncodeResult encode(const Message& message) const noexcept;
  // The same result as JSON text (a registered codec's value is dumped), for
  // the journal: text is valid JSON, valid UTF-8, at most kMaxDepth deep.
  EncodeTextResult encode_text(const Message& message) const noexcept;
  DecodeResult decode(const std::string& tag, const nlohmann::json& value) const noexcept;

 private:
  struct Codec {
    std::string tag;
    std::function<nlohmann::json(const Message&)> encode;
    std::function<Message(const nlohmann::json&)> decode;
  };
  void insert(std::type_index type, Codec codec);

  mutable std::mutex mutex_;
  std::unordered_map<std::type_index, Codec> by_type_;
  std::unordered_map<std::string, std::type_index> by_tag_;
  FallbackEncode fallback_encode_;
  FallbackDecode fallback_decode_;
  FallbackEncodeText fallback_encode_text_;
};

}  // namespace mailroom
