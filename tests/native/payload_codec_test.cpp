// PayloadCodecRegistry: tagged JSON for registered types, degraded otherwise.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mailroom/payload_codec_registry.hpp"

namespace mailroom {
namespace {

struct Order {
  int id;
  std::string item;
};

struct Opaque {};

void add_order(PayloadCodecRegistry& codecs) {
  codecs.add<Order>(
      "order",
      [](const Order& o) {
        return nlohmann::json{{"id", o.id}, {"item", o.item}};
      },
      [](const nlohmann::json& j) {
        return Order{j.at("id").get<int>(), j.at("item")};
      });
}

// A registered type encodes to its tag and JSON and decodes back to an equal value.
TEST(PayloadCodec, RegisteredTypeRoundTrips) {
  PayloadCodecRegistry codecs;
  add_order(codecs);
  const auto encoded = codecs.encode(Message(Order{7, "book"}));
  ASSERT_TRUE(encoded.ok());
  EXPECT_EQ(encoded.tagged->tag, "order");
  EXPECT_EQ(encoded.tagged->value.dump(), R"({"id":7,"item":"book"})");
  const auto decoded = codecs.decode("order", encoded.tagged->value);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded.message->get<Order>().id, 7);
  EXPECT_EQ(decoded.message->get<Order>().item, "book");
}

// A type without a codec is degraded with its type name and a reason.
TEST(PayloadCodec, UnregisteredTypeIsDegraded) {
  PayloadCodecRegistry codecs;
  const auto encoded = codecs.encode(Message(Opaque{}));
  EXPECT_FALSE(encoded.ok());
  EXPECT_NE(encoded.degraded.class_name.find("Opaque"), std::string::npos);
  EXPECT_EQ(encoded.degraded.reason, "no codec registered for this type");
}

// An encoder that throws degrades the payload instead of failing the caller.
TEST(PayloadCodec, ThrowingEncoderIsDegradedWithItsReason) {
  PayloadCodecRegistry codecs;
  codecs.add<Order>(
      "order", [](const Order&) -> nlohmann::json { throw std::runtime_error("cycle"); },
      [](const nlohmann::json&) { return Order{}; });
  const auto encoded = codecs.encode(Message(Order{1, "x"}));
  EXPECT_FALSE(encoded.ok());
  EXPECT_EQ(encoded.degraded.reason, "encoder failed: cycle");
}

// JSON nested `levels` deep ([[[...]]]), built without recursion.
nlohmann::json nested(int levels) {
  nlohmann::json value = "leaf";
  for (int i = 0; i < levels; ++i) {
    nlohmann::json outer = nlohmann::json::array();
    outer.push_back(std::move(value));
    value = std::move(outer);
  }
  return value;
}

// A codec whose JSON is deeper than tagged_json::kMaxDepth is degraded with
// that reason (the journal never holds what its reader would recurse through);
// at the limit it is kept. The JS codec stays under it by construction.
TEST(PayloadCodec, ValuesDeeperThanTheTaggedJsonLimitAreDegradedNotJournaled) {
  for (const int levels : {256, 257, 10'000}) {
    PayloadCodecRegistry codecs;
    codecs.add<Order>(
        "order", [levels](const Order&) { return nested(levels); },
        [](const nlohmann::json&) { return Order{}; });
    const auto encoded = codecs.encode(Message(Order{1, "x"}));
    EXPECT_EQ(encoded.ok(), levels <= 256) << levels;
    if (!encoded.ok()) {
      EXPECT_EQ(encoded.degraded.class_name, Message(Order{}).type_name());
      EXPECT_EQ(encoded.degraded.reason, "value nested deeper than 256 levels");
    }
  }
}

// Decoding refuses a value deeper than the limit before any codec sees it.
TEST(PayloadCodec, DecodeRefusesValuesDeeperThanTheLimit) {
  PayloadCodecRegistry codecs;
  bool called = false;
  codecs.add<Order>(
      "order", [](const Order&) { return nlohmann::json(); },
      [&called](const nlohmann::json&) {
        called = true;
        return Order{};
      });
  const auto decoded = codecs.decode("order", nested(10'000));
  EXPECT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.reason, "value nested deeper than 256 levels");
  EXPECT_FALSE(called);
}

// Decoding an unknown tag, or JSON the decoder rejects, fails with a reason.
TEST(PayloadCodec, UnknownTagOrBadJsonDoesNotDecode) {
  PayloadCodecRegistry codecs;
  add_order(codecs);
  const auto unknown = codecs.decode("invoice", nlohmann::json::object());
  EXPECT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.reason, "no codec registered for tag 'invoice'");
  const auto bad = codecs.decode("order", nlohmann::json{{"id", "seven"}});
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.reason.rfind("decoder failed: ", 0), 0u);
}

// The fallback (the wasm layer's hook for JS values) handles types without a codec.
TEST(PayloadCodec, FallbackHandlesOtherTypes) {
  PayloadCodecRegistry codecs;
  codecs.set_fallback(
      [](const Message& m) -> std::optional<PayloadCodecRegistry::Tagged> {
        if (const auto* s = m.get_if<std::string>()) return PayloadCodecRegistry::Tagged{"js", *s};
        if (m.is<double>()) throw std::runtime_error("functions cannot be journaled");
        return std::nullopt;
      },
      [](const std::string& tag, const nlohmann::json& j) -> std::optional<Message> {
        if (tag != "js") return std::nullopt;
        return Message(j.get<std::string>());
      });
  const auto text = codecs.encode(Message(std::string("hi")));
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text.tagged->tag, "js");
  EXPECT_EQ(codecs.decode("js", text.tagged->value).message->get<std::string>(), "hi");
  EXPECT_EQ(codecs.encode(Message(1.5)).degraded.reason,
            "encoder failed: functions cannot be journaled");
  EXPECT_EQ(codecs.encode(Message(1)).degraded.reason, "no codec registered for this type");
  EXPECT_FALSE(codecs.decode("other", nlohmann::json()).ok());
}

// Registering a type again replaces its codec and frees the old tag.
TEST(PayloadCodec, ReRegisteringReplacesTheCodec) {
  PayloadCodecRegistry codecs;
  add_order(codecs);
  codecs.add<Order>(
      "order-v2", [](const Order& o) { return nlohmann::json(o.id); },
      [](const nlohmann::json& j) {
        return Order{j.get<int>(), ""};
      });
  EXPECT_EQ(codecs.encode(Message(Order{3, ""})).tagged->tag, "order-v2");
  EXPECT_FALSE(codecs.decode("order", nlohmann::json::object()).ok());
}

// A text fallback (the wasm layer's JS codec) is carried into encode_text as
// the very text it made; encode() parses it; malformed or too deep text is
// degraded with a reason; registered codecs come out of encode_text dumped.
TEST(PayloadCodec, TextFallbackIsCarriedAsItIsAfterAValidatingScan) {
  PayloadCodecRegistry codecs;
  add_order(codecs);
  codecs.set_fallback_text([](const Message& m) -> std::optional<PayloadCodecRegistry::TaggedText> {
    if (const auto* s = m.get_if<std::string>()) return PayloadCodecRegistry::TaggedText{"js", *s};
    if (m.is<double>()) throw std::runtime_error("functions cannot be journaled");
    return std::nullopt;
  });
  const std::string text = R"({"zeta":1,"alpha":[true,null]})";  // keys not sorted: kept as given
  const auto carried = codecs.encode_text(Message(text));
  ASSERT_TRUE(carried.ok());
  EXPECT_EQ(carried.tagged->tag, "js");
  EXPECT_EQ(carried.tagged->text, text);
  const auto parsed = codecs.encode(Message(text));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.tagged->value, nlohmann::json::parse(text));

  const auto malformed = codecs.encode_text(Message(std::string(R"({"a":)")));
  EXPECT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.degraded.reason.rfind("encoder failed: ", 0), 0u)
      << malformed.degraded.reason;
  EXPECT_FALSE(malformed.degraded.class_name.empty());
  const auto deep = codecs.encode_text(Message(std::string(300, '[') + std::string(300, ']')));
  EXPECT_FALSE(deep.ok());
  EXPECT_EQ(deep.degraded.reason, "value nested deeper than 256 levels");
  EXPECT_EQ(codecs.encode_text(Message(1.5)).degraded.reason,
            "encoder failed: functions cannot be journaled");
  EXPECT_EQ(codecs.encode_text(Message(1)).degraded.reason, "no codec registered for this type");

  const auto order = codecs.encode_text(Message(Order{7, "b\xFFk"}));
  ASSERT_TRUE(order.ok());
  EXPECT_EQ(order.tagged->tag, "order");
  EXPECT_EQ(order.tagged->text,
            "{\"id\":7,\"item\":\"b\xEF\xBF\xBDk\"}");  // replaced, as records always did
}

}  // namespace
}  // namespace mailroom
