#include "payload_codecs.hpp"

#include <emscripten/emscripten.h>

#include <stdexcept>

#include "js_hooks.hpp"
#include "js_value.hpp"

// The JS codec (wasm/js/payload_codec.js) encodes the value in a slot and
// writes its tagged-JSON text as UTF-8 straight into wasm memory: no embind
// handle, no result object. Returns the bytes written, -1 when the value is
// refused (the reason is fetched then), -2 when the text does not fit (the
// JS side keeps it; mr_encoded_payload_size says how much room it needs).
EM_JS(int, mr_encode_payload, (std::uint32_t slot, char* buffer, int capacity),
      { return Module.mrEncodePayload(slot, buffer, capacity); });
EM_JS(int, mr_encoded_payload_size, (), { return Module.mrEncodedPayloadSize(); });

namespace mailroom::wasm {

using emscripten::val;

namespace {

// Most payloads fit here at once (one allocation: the record's text itself).
constexpr int kFirstCapacity = 256;

std::optional<PayloadCodecRegistry::TaggedText> encode_js(const Message& message) {
  if (const auto* number = message.get_if<JsNumber>()) {
    // The JS codec reads slots: the number gets one for this encoding only.
    return encode_js(Message(JsValue(val(number->value))));
  }
  const auto* js = message.get_if<JsValue>();
  if (js == nullptr) return std::nullopt;
  std::string text(kFirstCapacity, '\0');
  int written = mr_encode_payload(js->slot(), text.data(), static_cast<int>(text.size()));
  if (written == -2) {
    text.resize(static_cast<std::size_t>(mr_encoded_payload_size()));
    written = mr_encode_payload(js->slot(), text.data(), static_cast<int>(text.size()));
  }
  if (written < 0) {
    throw std::runtime_error(val::module_property("mrTakeEncodeRefusal")().as<std::string>());
  }
  text.resize(static_cast<std::size_t>(written));
  return PayloadCodecRegistry::TaggedText{"js", std::move(text)};
}

}  // namespace

std::shared_ptr<PayloadCodecRegistry> js_payload_codecs() {
  static const std::shared_ptr<PayloadCodecRegistry> registry = [] {
    auto r = std::make_shared<PayloadCodecRegistry>();
    r->set_fallback_text(&encode_js);
    r->set_fallback(
        nullptr,  // encode: the text fallback above (encode() parses it)
        [](const std::string& tag, const nlohmann::json& value) -> std::optional<Message> {
          // A journal written by the native build: its default codecs' tags.
          if (tag == "string" && value.is_string()) {
            return Message(JsValue{val(value.get<std::string>())});
          }
          if ((tag == "int" || tag == "double") && value.is_number()) {
            return Message(JsValue{val(value.get<double>())});
          }
          if (tag == "bool" && value.is_boolean()) return Message(JsValue{val(value.get<bool>())});
          if (tag != "js") return std::nullopt;
          val decoded = hooks()["decodePayload"](value.dump());
          if (threw(decoded)) throw JsError(decoded["thrown"]);
          return Message(JsValue{decoded["value"]});
        });
    return r;
  }();
  return registry;
}

}  // namespace mailroom::wasm
