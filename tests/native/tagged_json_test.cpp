#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/tagged_json.hpp"

namespace mailroom {
namespace {

using nlohmann::json;

// One more level around a value, built by moving (a copy would recurse).
json wrap(json inner) {
  json outer = json::array();
  outer.push_back(std::move(inner));
  return outer;
}

// encode then decode gives back the tag and an equal value, whatever its shape.
TEST(TaggedJson, RoundTripKeepsTagAndValue) {
  const json values[] = {
      json(nullptr),
      json(true),
      json(-12.5),
      json("text with \"quotes\" and \xC3\xA9"),
      json::array({1, "two", json::object({{"three", 3}})}),
      json::object({{"$tag", "Map"}, {"entries", json::array({json::array({"k", 1})})}}),
  };
  for (const json& value : values) {
    const std::string text = tagged_json::encode("app.Order", value);
    const tagged_json::DecodeResult decoded = tagged_json::decode(text);
    ASSERT_TRUE(decoded.ok) << decoded.error;
    EXPECT_EQ(decoded.tag, "app.Order");
    EXPECT_EQ(decoded.value, value);
    EXPECT_TRUE(decoded.error.empty());
  }
}

// The format on disk is exactly {"t": tag, "v": value}.
TEST(TaggedJson, EncodesTheDocumentedShape) {
  EXPECT_EQ(tagged_json::encode("string", json("hi")), R"({"t":"string","v":"hi"})");
}

// Malformed text and missing or mistyped fields are errors, never exceptions.
TEST(TaggedJson, DecodeReportsEveryMalformedInput) {
  const char* inputs[] = {
      "",
      "{",
      "not json",
      "[1,2]",
      R"({"v":1})",
      R"({"t":1,"v":1})",
      R"({"t":"","v":1})",
      R"({"t":"x"})",
      "{\"t\":\"x\",\"v\":\"\xFF\"}",
      "{\"t\":\"x\",\"v\":1} trailing",
  };
  for (const char* input : inputs) {
    const tagged_json::DecodeResult decoded = tagged_json::decode(input);
    EXPECT_FALSE(decoded.ok) << input;
    EXPECT_FALSE(decoded.error.empty()) << input;
    EXPECT_TRUE(decoded.tag.empty()) << input;
  }
}

// Fields other than t and v are ignored, so later versions can add some.
TEST(TaggedJson, ExtraFieldsAreIgnored) {
  const auto decoded = tagged_json::decode(R"({"t":"x","v":[1],"meta":{}})");
  ASSERT_TRUE(decoded.ok);
  EXPECT_EQ(decoded.value, json::array({1}));
}

// Nesting beyond the limit is refused by name, both as text and as a value.
TEST(TaggedJson, DeepNestingIsRefusedByName) {
  const std::string deep =
      R"({"t":"x","v":)" + std::string(100000, '[') + std::string(100000, ']') + "}";
  const auto decoded = tagged_json::decode(deep);
  EXPECT_FALSE(decoded.ok);
  EXPECT_NE(decoded.error.find("nested deeper than 256"), std::string::npos);

  json at_limit = json::array();
  for (std::size_t i = 1; i < tagged_json::kMaxDepth; ++i) at_limit = wrap(std::move(at_limit));
  EXPECT_TRUE(tagged_json::validate(at_limit).ok);
  EXPECT_TRUE(tagged_json::decode(tagged_json::encode("x", at_limit)).ok);
  const json over = wrap(std::move(at_limit));
  EXPECT_FALSE(tagged_json::validate(over).ok);
  EXPECT_THROW(tagged_json::encode("x", over), std::invalid_argument);
}

// Brackets inside strings do not count toward the depth.
TEST(TaggedJson, TextDepthIgnoresBracketsInStrings) {
  EXPECT_EQ(tagged_json::text_depth(R"({"a":"[[[\"{{"})"), 1u);
  EXPECT_EQ(tagged_json::text_depth("[[{}]]"), 3u);
  EXPECT_EQ(tagged_json::text_depth("]]]"), 0u);
}

// encode refuses what it cannot write faithfully: an empty tag or invalid UTF-8.
TEST(TaggedJson, EncodeRefusesEmptyTagAndInvalidUtf8) {
  EXPECT_THROW(tagged_json::encode("", json(1)), std::invalid_argument);
  EXPECT_THROW(tagged_json::encode("x", json("\xFF")), std::invalid_argument);
}

// validate_text accepts exactly what nlohmann::json::parse accepts (it is what
// restores the record), within the depth rule, and names why it refuses.
TEST(TaggedJson, ValidateTextAgreesWithTheParserAndTheDepthRule) {
  const std::vector<std::string> cases = {"1",
                                          "-0",
                                          "1e308",
                                          "1e309",
                                          "-1e400",
                                          "12345678901234567890123",
                                          "0.5e-400",
                                          "01",
                                          "1.",
                                          ".5",
                                          "\"a\"",
                                          "\"\\ud83d\\ude00\"",
                                          "\"\\ud800\"",
                                          "\"\\udc00x\"",
                                          "\"\\u00e9\"",
                                          "\"\xC3\xA9\"",
                                          "\"\xC3\"",
                                          "\"\xED\xA0\x80\"",
                                          std::string("\"\x01\""),
                                          "\"\\x\"",
                                          "[1,2,]",
                                          "{\"a\":1,}",
                                          "{\"a\" 1}",
                                          "{\"a\":1}",
                                          "[]",
                                          "{}",
                                          "[",
                                          "",
                                          " ",
                                          "null ",
                                          "nul",
                                          "true false",
                                          "{\"$t\":\"object\",\"v\":{\"id\":1},\"k\":[\"id\"]}",
                                          "[1]x"};
  for (const std::string& text : cases) {
    EXPECT_EQ(tagged_json::validate_text(text).ok, nlohmann::json::accept(text)) << text;
    if (!tagged_json::validate_text(text).ok)
      EXPECT_FALSE(tagged_json::validate_text(text).error.empty());
  }
  const auto nest = [](std::size_t levels) {
    return std::string(levels, '[') + "1" + std::string(levels, ']');
  };
  EXPECT_TRUE(tagged_json::validate_text(nest(tagged_json::kMaxDepth)).ok);
  const auto over = tagged_json::validate_text(nest(tagged_json::kMaxDepth + 1));
  EXPECT_FALSE(over.ok);
  EXPECT_EQ(over.error, "value nested deeper than 256 levels");
  // Hostile depth is refused without recursion.
  EXPECT_FALSE(tagged_json::validate_text(std::string(1000000, '[')).ok);
}

}  // namespace
}  // namespace mailroom
