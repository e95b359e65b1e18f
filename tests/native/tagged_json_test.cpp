#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
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
    if (!tagged_json::validate_text(text).ok) {
      EXPECT_FALSE(tagged_json::validate_text(text).error.empty());
    }
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

// The one-pass check agrees with the parser on text a buggy or hostile encoder
// could produce: valid documents mutated byte by byte (inserted, replaced and
// deleted bytes drawn from JSON's structural characters, escapes, digits and
// UTF-8 lead and continuation bytes), thousands of them, deterministically.
TEST(TaggedJson, ValidateTextAgreesWithTheParserOnMutatedText) {
  const std::vector<std::string> seeds = {
      "{\"$t\":\"object\",\"v\":{\"kind\":\"order\",\"id\":1},\"k\":[\"kind\",\"id\"]}",
      "[1,-2.5e+3,0.25,true,false,null,\"a\\u00e9\\ud83d\\ude00\\n\"]",
      "{\"a\":{\"b\":[[],{},[{\"c\":\"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\"}]]}}",
      " \t\r\n\"text\" ",
      "-0.0e-0",
      "123456789012345678901234567890",
  };
  const std::string alphabet =
      std::string("{}[],:\"\\/ubfnrt0123456789-+.eE \t\nxaA") +
      "\x7F\xC2\xC3\xDF\xE0\xED\xEF\xF0\xF4\xF5\x80\x8F\x90\x9F\xA0\xBB\xBF\xFF\x01";
  std::uint64_t state = 0x2545F4914F6CDD1DULL;
  const auto next = [&state](std::uint64_t bound) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state % bound;
  };
  std::size_t accepted = 0, refused = 0;
  for (int round = 0; round < 30000; ++round) {
    std::string text = seeds[next(seeds.size())];
    const std::uint64_t edits = 1 + next(3);
    for (std::uint64_t e = 0; e < edits; ++e) {
      const std::size_t at = text.empty() ? 0 : next(text.size());
      const char c = alphabet[next(alphabet.size())];
      switch (next(3)) {
        case 0:
          text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), c);
          break;
        case 1:
          if (!text.empty()) text[at] = c;
          break;
        default:
          if (!text.empty()) text.erase(at, 1);
      }
    }
    const bool ok = tagged_json::validate_text(text).ok;
    ASSERT_EQ(ok, json::accept(text))
        << "text: " << json(text).dump(-1, ' ', true, json::error_handler_t::replace);
    ++(ok ? accepted : refused);
  }
  // Both answers were exercised, so the agreement means something.
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(refused, 1000u);
}

// Every one- and two-byte sequence inside a string, and every lead byte with
// each second byte in three-byte sequences: the UTF-8 rules match the parser's.
TEST(TaggedJson, ValidateTextAgreesWithTheParserOnUtf8) {
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; ++b) {
      const std::string two = std::string("\"") + char(a) + char(b) + "\"";
      if (a == 0 || b == 0) continue;  // NUL: see the next test
      ASSERT_EQ(tagged_json::validate_text(two).ok, json::accept(two)) << a << " " << b;
      for (int c : {0x80, 0x9F, 0xA0, 0xBF}) {
        const std::string three = std::string("\"") + char(a) + char(b) + char(c) + "\"";
        ASSERT_EQ(tagged_json::validate_text(three).ok, json::accept(three))
            << a << " " << b << " " << c;
      }
    }
  }
  for (int b : {0x80, 0x8F, 0x90, 0xBF}) {
    for (int lead = 0xF0; lead <= 0xF5; ++lead) {
      const std::string four = std::string("\"") + char(lead) + char(b) + "\x80\x80\"";
      ASSERT_EQ(tagged_json::validate_text(four).ok, json::accept(four)) << lead << " " << b;
    }
  }
}

// A NUL byte: inside a string it must be escaped (both agree); outside one the
// parser stops reading and accepts what came before, which would be written
// into a record that then fails to restore. Here it is refused, by name.
TEST(TaggedJson, ValidateTextRefusesNulWhereTheParserWouldStopReading) {
  const std::string in_string("\"a\0b\"", 5);
  EXPECT_FALSE(tagged_json::validate_text(in_string).ok);
  EXPECT_FALSE(json::accept(in_string));
  const std::string after_value("1\0garbage", 9);
  const auto refused = tagged_json::validate_text(after_value);
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.error, "malformed JSON at byte 1: unexpected text after the value");
}

// Deep but allowed nesting beyond the inline stack, and the depth error's
// place in the text: a syntax error before the limit is reported as such.
TEST(TaggedJson, ValidateTextNamesDepthAndSyntaxErrorsInTextOrder) {
  const std::string deep = std::string(600, '[') + std::string(600, ']');
  EXPECT_TRUE(tagged_json::validate_text(deep, 1000).ok);
  EXPECT_FALSE(tagged_json::validate_text(deep, 599).ok);
  EXPECT_EQ(tagged_json::validate_text(deep, 599).error, "value nested deeper than 599 levels");
  EXPECT_EQ(tagged_json::validate_text("[x" + std::string(300, '['), 256).error,
            "malformed JSON at byte 1: expected a value");
  EXPECT_EQ(tagged_json::validate_text("{\"a\":1e999}").error,
            "malformed JSON at byte 5: number overflow");
}

}  // namespace
}  // namespace mailroom
