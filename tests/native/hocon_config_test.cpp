#include <gtest/gtest.h>

#include <string>

#include "mailroom/errors.hpp"
#include "mailroom/hocon_config.hpp"

namespace mailroom {
namespace {

// Parses text that must be malformed and returns the error, failing the test otherwise.
ConfigError parse_error(std::string_view text) {
  try {
    HoconConfig::parse(text);
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError for: " << text;
  return ConfigError("none", 0, 0);
}

ConfigError getter_error(const HoconConfig& config, void (*get)(const HoconConfig&)) {
  try {
    get(config);
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no ConfigError from the getter";
  return ConfigError("none", 0, 0);
}

// The seed's dead-letter block reads back field by field with its types.
TEST(HoconConfig, ReadsTheSeedDeadLetterBlock) {
  const auto config = HoconConfig::parse(
      "mailroom.dead-letters {\n"
      "  store       = \"memory\"\n"
      "  max-entries = 1000\n"
      "  retention   = 1h\n"
      "  max-replays = 3\n"
      "}\n");
  EXPECT_EQ(config.get_string("mailroom.dead-letters.store"), "memory");
  EXPECT_EQ(config.get_number("mailroom.dead-letters.max-entries"), 1000.0);
  EXPECT_EQ(config.get_duration_ms("mailroom.dead-letters.retention"), 3600000);
  EXPECT_EQ(config.get_number("mailroom.dead-letters.max-replays"), 3.0);
  EXPECT_FALSE(config.has("mailroom.dead-letters.persistence-id"));
  EXPECT_EQ(config.get_string("mailroom.dead-letters.persistence-id"), std::nullopt);
}

// Dotted keys and nested blocks describe the same tree and merge into one object.
TEST(HoconConfig, DottedKeysAndNestedObjectsMerge) {
  const auto config = HoconConfig::parse(
      "a.b.c = 1\n"
      "a { b { d = 2 } }\n"
      "a.e: x\n"
      "a { b.c = 3 }\n");
  EXPECT_EQ(config.get_number("a.b.c"), 3.0);
  EXPECT_EQ(config.get_number("a.b.d"), 2.0);
  EXPECT_EQ(config.get_string("a.e"), "x");
  ASSERT_TRUE(config.find("a")->is_object());
  EXPECT_EQ(config.root().size(), 1u);
}

// A later scalar replaces an object, and a later object replaces a scalar.
TEST(HoconConfig, LaterValuesOverrideEarlierOnes) {
  const auto config = HoconConfig::parse("a { b = 1 }\na = 5\nc = 1\nc { d = true }\nf = 1, f = 2");
  EXPECT_EQ(config.get_number("a"), 5.0);
  EXPECT_FALSE(config.has("a.b"));
  EXPECT_EQ(config.get_bool("c.d"), true);
  EXPECT_EQ(config.get_number("f"), 2.0);
}

// Both comment styles run to the end of the line; commas and newlines both separate fields.
TEST(HoconConfig, CommentsAndSeparators) {
  const auto config = HoconConfig::parse(
      "# a comment\n"
      "// another\n"
      "x = 1 # trailing\n"
      "y = two words // trailing\n"
      "z { p = 1, q = 2, }\r\n"
      "w = 3, v = 4\n");
  EXPECT_EQ(config.get_number("x"), 1.0);
  EXPECT_EQ(config.get_string("y"), "two words");
  EXPECT_EQ(config.get_number("z.p"), 1.0);
  EXPECT_EQ(config.get_number("z.q"), 2.0);
  EXPECT_EQ(config.get_number("w"), 3.0);
  EXPECT_EQ(config.get_number("v"), 4.0);
  EXPECT_EQ(config.root().size(), 5u);
}

// A whole document may be wrapped in braces, as in JSON.
TEST(HoconConfig, BracedRootObject) {
  const auto config = HoconConfig::parse("{ \"a\": { \"b\": 1 }, c: null }");
  EXPECT_EQ(config.get_number("a.b"), 1.0);
  EXPECT_TRUE(config.find("c")->is_null());
  EXPECT_FALSE(config.has("c"));  // null is "no value", as in Typesafe Config
  EXPECT_EQ(config.get_string("c"), std::nullopt);
}

// Quoted strings keep escapes and '#'; unquoted strings are trimmed.
TEST(HoconConfig, QuotedAndUnquotedStrings) {
  const auto config = HoconConfig::parse(
      "q = \"a \\\"b\\\" # not a comment \\n \\u00e9 \\ud83d\\ude00\"\n"
      "u = /user/orders   \n"
      "\"dotted.key\" = 1\n");
  EXPECT_EQ(config.get_string("q"), "a \"b\" # not a comment \n \xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(config.get_string("u"), "/user/orders");
  EXPECT_EQ(config.root().count("dotted.key"), 1u);
}

// Numbers, booleans and null are typed; get_string reads numbers as written.
TEST(HoconConfig, ScalarTypes) {
  const auto config =
      HoconConfig::parse("n = -1.5e2\ni = 42\nt = true\nf = false\nz = null\ny = yes");
  EXPECT_EQ(config.get_number("n"), -150.0);
  EXPECT_EQ(config.get_string("i"), "42");
  EXPECT_EQ(config.get_bool("t"), true);
  EXPECT_EQ(config.get_bool("f"), false);
  EXPECT_EQ(config.get_bool("y"), true);
  EXPECT_TRUE(config.find("z")->is_null());
  EXPECT_EQ(config.get_number("z"), std::nullopt);
}

// Durations accept short and long units, spaces, fractions and bare milliseconds.
TEST(HoconConfig, DurationsInEveryUnit) {
  const auto config = HoconConfig::parse(
      "a = 250ms\nb = 250 ms\nc = 6h\nd = 1 d\ne = 2 seconds\nf = 1.5s\ng = 42\n"
      "h = 3 minutes\ni = 10m\nj = \"2 hours\"\nk = 1 millisecond\nl = 7 days\n");
  EXPECT_EQ(config.get_duration_ms("a"), 250);
  EXPECT_EQ(config.get_duration_ms("b"), 250);
  EXPECT_EQ(config.get_duration_ms("c"), 6 * 3600000);
  EXPECT_EQ(config.get_duration_ms("d"), 86400000);
  EXPECT_EQ(config.get_duration_ms("e"), 2000);
  EXPECT_EQ(config.get_duration_ms("f"), 1500);
  EXPECT_EQ(config.get_duration_ms("g"), 42);
  EXPECT_EQ(config.get_duration_ms("h"), 180000);
  EXPECT_EQ(config.get_duration_ms("i"), 600000);
  EXPECT_EQ(config.get_duration_ms("j"), 7200000);
  EXPECT_EQ(config.get_duration_ms("k"), 1);
  EXPECT_EQ(config.get_duration_ms("l"), 7 * 86400000LL);
  EXPECT_EQ(config.get_duration_ms("missing"), std::nullopt);
}

// A value of the wrong type names the path and points at the value.
TEST(HoconConfig, TypeErrorsNamePathLineAndColumn) {
  const auto config = HoconConfig::parse("a {\n  retention = soon\n  n = abc\n  o { }\n}");
  const ConfigError d =
      getter_error(config, [](const HoconConfig& c) { c.get_duration_ms("a.retention"); });
  EXPECT_EQ(d.line(), 2);
  EXPECT_EQ(d.column(), 15);
  EXPECT_NE(std::string(d.what()).find("a.retention"), std::string::npos);
  const ConfigError n = getter_error(config, [](const HoconConfig& c) { c.get_number("a.n"); });
  EXPECT_EQ(n.line(), 3);
  EXPECT_EQ(n.column(), 7);
  const ConfigError o = getter_error(config, [](const HoconConfig& c) { c.get_string("a.o"); });
  EXPECT_EQ(o.line(), 4);
  EXPECT_EQ(o.column(), 5);
  const ConfigError b = getter_error(config, [](const HoconConfig& c) { c.get_bool("a.n"); });
  EXPECT_NE(std::string(b.what()).find("expected a boolean"), std::string::npos);
}

// Malformed input reports the 1-based line and column of the offending character.
TEST(HoconConfig, SyntaxErrorsPointAtTheOffendingCharacter) {
  struct Case {
    const char* text;
    int line, column;
  };
  const Case cases[] = {
      {"a = 1\nb 2", 2, 3},                          // no separator after the key
      {"a = \"open", 1, 5},                          // unterminated string: its opening quote
      {"a = [1, 2]", 1, 5},                          // arrays are not supported
      {"a {\n  b = 1\n", 3, 1},                      // missing '}' at end of input
      {"}", 1, 1},                                   // stray '}'
      {"a = ${b}", 1, 5},                            // substitution
      {"a = x y = 2", 1, 9},                         // '=' inside an unquoted value
      {"a = \"x\" \"y\"", 1, 9},                     // two values
      {"a = \"\\q\"", 1, 6},                         // invalid escape
      {"\xC3\xA9 = 1\n \xC3\xA9\xC3\xA9 = ", 2, 7},  // columns count characters
      {"a.", 1, 3},                                  // key ends with a dot
      {"a =\n1", 1, 4},                              // value missing
      {"a += 1", 1, 3},                              // '+=' not supported
      {"a = 1e999", 1, 5},                           // number out of range
  };
  for (const Case& c : cases) {
    const ConfigError e = parse_error(c.text);
    EXPECT_EQ(e.line(), c.line) << c.text << " -> " << e.what();
    EXPECT_EQ(e.column(), c.column) << c.text << " -> " << e.what();
  }
}

// Nesting beyond 256 levels is a named error, not a stack overflow.
TEST(HoconConfig, DeepNestingIsRefused) {
  std::string deep(10000, '{');
  EXPECT_THROW(HoconConfig::parse("a = " + deep), ConfigError);
  std::string dotted = "a";
  for (int i = 0; i < 10000; ++i) dotted += ".a";
  EXPECT_THROW(HoconConfig::parse(dotted + " = 1"), ConfigError);
  std::string ok = "a";
  for (int i = 0; i < 100; ++i) ok += ".a";
  EXPECT_EQ(HoconConfig::parse(ok + " = 1").get_number(ok), 1.0);
}

// Empty and whitespace-only documents are valid and empty.
TEST(HoconConfig, EmptyDocumentsAreEmpty) {
  EXPECT_TRUE(HoconConfig::parse("").root().empty());
  EXPECT_TRUE(HoconConfig::parse(" \n# only a comment\n\r\n").root().empty());
  EXPECT_TRUE(HoconConfig().root().empty());
  EXPECT_EQ(HoconConfig().find("a"), nullptr);
}

}  // namespace
}  // namespace mailroom
