#include "payload_codecs.hpp"

#include <stdexcept>

#include "js_hooks.hpp"
#include "js_value.hpp"

namespace mailroom::wasm {

using emscripten::val;

std::shared_ptr<PayloadCodecRegistry> js_payload_codecs() {
  static const std::shared_ptr<PayloadCodecRegistry> registry = [] {
    auto r = std::make_shared<PayloadCodecRegistry>();
    r->set_fallback(
        [](const Message& message) -> std::optional<PayloadCodecRegistry::Tagged> {
          const auto* js = message.get_if<JsValue>();
          if (js == nullptr) return std::nullopt;
          val encoded = hooks()["encodePayload"](js->value());
          if (!encoded["json"].isString()) {
            throw std::runtime_error(encoded["reason"].as<std::string>());
          }
          return PayloadCodecRegistry::Tagged{
              "js", nlohmann::json::parse(encoded["json"].as<std::string>())};
        },
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
