#include "mailroom/payload_codec_registry.hpp"

#include <exception>

#include "error_text.hpp"
#include "mailroom/tagged_json.hpp"

namespace mailroom {
namespace {

std::string safe_type_name(const Message& message) noexcept {
  try {
    return message.type_name();
  } catch (...) {
    return "<unnamed>";
  }
}

}  // namespace

void PayloadCodecRegistry::insert(std::type_index type, Codec codec) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto old = by_type_.find(type); old != by_type_.end()) by_tag_.erase(old->second.tag);
  if (auto old = by_tag_.find(codec.tag); old != by_tag_.end()) by_type_.erase(old->second);
  by_tag_.insert_or_assign(codec.tag, type);
  by_type_.insert_or_assign(type, std::move(codec));
}

void PayloadCodecRegistry::set_fallback(FallbackEncode encode, FallbackDecode decode) {
  std::lock_guard<std::mutex> lock(mutex_);
  fallback_encode_ = std::move(encode);
  fallback_decode_ = std::move(decode);
}

void PayloadCodecRegistry::set_fallback_text(FallbackEncodeText encode) {
  std::lock_guard<std::mutex> lock(mutex_);
  fallback_encode_text_ = std::move(encode);
}

PayloadCodecRegistry::EncodeResult PayloadCodecRegistry::encode(
    const Message& message) const noexcept {
  EncodeResult result;
  result.degraded.class_name = safe_type_name(message);
  try {
    std::function<nlohmann::json(const Message&)> encoder;
    std::string tag;
    FallbackEncode fallback;
    FallbackEncodeText fallback_text;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = by_type_.find(message.type()); it != by_type_.end()) {
        encoder = it->second.encode;
        tag = it->second.tag;
      } else if (fallback_encode_) {
        fallback = fallback_encode_;
      } else {
        fallback_text = fallback_encode_text_;
      }
    }
    // Codecs run outside the lock: they are user code.
    if (encoder) {
      result.tagged = Tagged{std::move(tag), encoder(message)};
    } else if (fallback) {
      result.tagged = fallback(message);
      if (!result.tagged) result.degraded.reason = "no codec registered for this type";
    } else if (fallback_text) {
      if (std::optional<TaggedText> text = fallback_text(message)) {
        result.tagged = Tagged{std::move(text->tag), nlohmann::json::parse(text->text)};
      } else {
        result.degraded.reason = "no codec registered for this type";
      }
    } else {
      result.degraded.reason = "no codec registered for this type";
    }
    // One depth rule for every codec: nothing deeper than tagged_json::kMaxDepth
    // reaches the journal, whose reader and writer would recurse through it.
    if (result.tagged) {
      if (auto valid = tagged_json::validate(result.tagged->value); !valid.ok) {
        result.tagged.reset();
        result.degraded.reason = valid.error;
      }
    }
  } catch (...) {
    result.tagged.reset();
    result.degraded.reason = "encoder failed: " + detail::error_text(std::current_exception());
  }
  return result;
}

PayloadCodecRegistry::EncodeTextResult PayloadCodecRegistry::encode_text(
    const Message& message) const noexcept {
  FallbackEncodeText fallback_text;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Only a text fallback is carried as it is; every other codec goes through encode().
    if (!fallback_encode_ && by_type_.find(message.type()) == by_type_.end()) {
      fallback_text = fallback_encode_text_;
    }
  }
  EncodeTextResult result;
  if (!fallback_text) {
    EncodeResult encoded = encode(message);
    result.degraded = std::move(encoded.degraded);
    if (!encoded.ok()) return result;
    try {
      // Replace invalid UTF-8 rather than throw, as the record always did.
      result.tagged = TaggedText{
          std::move(encoded.tagged->tag),
          encoded.tagged->value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
    } catch (...) {
      result.tagged.reset();
      result.degraded.reason = "encoder failed: " + detail::error_text(std::current_exception());
    }
    return result;
  }
  try {
    result.tagged = fallback_text(message);
    if (!result.tagged) {
      result.degraded.reason = "no codec registered for this type";
    } else if (auto valid = tagged_json::validate_text(result.tagged->text); !valid.ok) {
      // The depth rule of encode(); malformed text is the encoder failing, as a parse would say.
      const bool too_deep = valid.error.rfind("value nested deeper", 0) == 0;
      result.degraded.reason = too_deep ? valid.error : "encoder failed: " + valid.error;
      result.tagged.reset();
    }
  } catch (...) {
    result.tagged.reset();
    result.degraded.reason = "encoder failed: " + detail::error_text(std::current_exception());
  }
  // Named only when it is needed (a JS class name is a call into JS).
  if (!result.tagged) result.degraded.class_name = safe_type_name(message);
  return result;
}

PayloadCodecRegistry::DecodeResult PayloadCodecRegistry::decode(
    const std::string& tag, const nlohmann::json& value) const noexcept {
  DecodeResult result;
  if (auto valid = tagged_json::validate(value); !valid.ok) {
    result.reason = valid.error;  // a hostile or foreign record: refused before any codec sees it
    return result;
  }
  try {
    std::function<Message(const nlohmann::json&)> decoder;
    FallbackDecode fallback;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = by_tag_.find(tag); it != by_tag_.end()) {
        decoder = by_type_.at(it->second).decode;
      } else {
        fallback = fallback_decode_;
      }
    }
    if (decoder) {
      result.message = decoder(value);
    } else if (fallback) {
      result.message = fallback(tag, value);
      if (!result.message) result.reason = "no codec registered for tag '" + tag + "'";
    } else {
      result.reason = "no codec registered for tag '" + tag + "'";
    }
  } catch (...) {
    result.message.reset();
    result.reason = "decoder failed: " + detail::error_text(std::current_exception());
  }
  return result;
}

}  // namespace mailroom
