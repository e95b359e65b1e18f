// The persistent store's journal record (core/src/deadletters/dead_letter_record.*):
// written by hand, byte for byte what the nlohmann::json it used to build
// dumped (so journals written before and after read the same), and a payload
// carried as JSON text reads back as the value it spells.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

// Private core headers (core/src), tested directly: the record is the journal format.
#include "../../core/src/deadletters/dead_letter_record.hpp"
#include "../../core/src/deadletters/json_text.hpp"

namespace mailroom::detail {
namespace {

// The writer as it was before the hand-written one (the reference).
std::string nlohmann_record(const DeadLetterRecord& r) {
  nlohmann::json j;
  switch (r.kind) {
    case DeadLetterRecord::Kind::kCaptured:
      j["k"] = "captured";
      j["id"] = r.id;
      j["ts"] = r.timestamp_ms;
      j["r"] = r.recipient_path;
      j["s"] = r.sender_path ? nlohmann::json(*r.sender_path) : nlohmann::json(nullptr);
      j["n"] = r.replay_count;
      j["why"] = std::string(to_string(r.cause));
      if (r.drop_reason) j["pol"] = std::string(to_string(*r.drop_reason));
      if (r.tag) {
        j["p"] = {{"t", *r.tag}, {"v", r.value}, {"c", r.degraded_class}};
      } else {
        j["p"] = {{"d", {{"c", r.degraded_class}, {"w", r.degraded_reason}}}};
      }
      break;
    case DeadLetterRecord::Kind::kRemoved:
      j["k"] = "removed";
      j["id"] = r.id;
      if (r.purged) j["why"] = "purged";
      break;
    case DeadLetterRecord::Kind::kReleased:
      j["k"] = "released";
      j["id"] = r.id;
      break;
    case DeadLetterRecord::Kind::kCleared:
      j["k"] = "cleared";
      break;
    case DeadLetterRecord::Kind::kUnknown:
      j["k"] = "unknown";
      break;
  }
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

DeadLetterRecord captured(std::string recipient, std::string text) {
  DeadLetterRecord r;
  r.kind = DeadLetterRecord::Kind::kCaptured;
  r.id = 18446744073709551614ull;
  r.timestamp_ms = -1700000000123;
  r.recipient_path = std::move(recipient);
  r.sender_path = "/user/s\"nd";
  r.replay_count = 4294967295u;
  r.cause = DeadLetterCause::kDropped;
  r.drop_reason = DropReason::kDropHead;
  r.tag = "js";
  r.value = nlohmann::json{{"zeta", std::move(text)}, {"alpha", {1, -2.5, nullptr, true}}};
  r.degraded_class = "Order";
  return r;
}

// Strings a record may hold: escapes, control characters, multi-byte UTF-8 and
// every kind of malformed UTF-8 (truncated, overlong, surrogate, too large, stray).
const std::vector<std::string>& awkward_strings() {
  static const std::vector<std::string> strings = {
      "",
      "/user/plain",
      "quote \" backslash \\ slash / tab \t nl \n cr \r ff \f bs \b",
      std::string("nul \0 unit \x1f del \x7f", 19),
      "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80 \xE2\x80\xA8",
      "trunc \xC3",
      "trunc3 \xE2\x82",
      "overlong \xC0\xAF \xE0\x80\xAF",
      "surrogate \xED\xA0\x80",
      "too large \xF4\x90\x80\x80 \xF5\x80\x80\x80",
      "stray \x80\xBF continuation",
      "\xFF\xFE",
      "mixed \xC3\xA9\xC3 \x01 \xE2\x82\xAC\x80",
  };
  return strings;
}

// Every kind of record, and a captured one with each awkward string in each
// string field, is written exactly as nlohmann wrote it.
TEST(DeadLetterRecord, ToJsonIsByteForByteTheNlohmannDump) {
  std::vector<DeadLetterRecord> records;
  for (const std::string& s : awkward_strings()) {
    records.push_back(captured(s, s));
    DeadLetterRecord r = captured("/user/a", "v");
    r.sender_path = s;
    r.degraded_class = s;
    r.tag = s;
    records.push_back(r);
    DeadLetterRecord degraded = captured("/user/b", "");
    degraded.tag.reset();
    degraded.degraded_class = s;
    degraded.degraded_reason = s;
    degraded.sender_path.reset();
    degraded.drop_reason.reset();
    degraded.cause = DeadLetterCause::kUnknown;
    records.push_back(degraded);
  }
  DeadLetterRecord null_value = captured("/user/c", "");
  null_value.value = nullptr;
  records.push_back(null_value);
  for (auto kind : {DeadLetterRecord::Kind::kRemoved, DeadLetterRecord::Kind::kReleased,
                    DeadLetterRecord::Kind::kCleared, DeadLetterRecord::Kind::kUnknown}) {
    DeadLetterRecord r;
    r.kind = kind;
    r.id = 7;
    records.push_back(r);
    r.purged = true;
    records.push_back(r);
  }
  for (const DeadLetterRecord& r : records) EXPECT_EQ(r.to_json(), nlohmann_record(r));
}

// Ids, counts and times at every digit-count and 32-bit boundary, the
// extremes and random values are written as nlohmann writes them.
TEST(DeadLetterRecord, NumbersAreWrittenAsNlohmannWritesThem) {
  std::vector<std::uint64_t> values = {0, 1, 9, 10, 99, 100, 999, 1000, 4294967295u};
  for (std::uint64_t p = 10; p <= 1000000000000000000u; p *= 10) {
    values.insert(values.end(), {p - 1, p, p + 1});
  }
  values.insert(values.end(), {4294967296u, 99999999u * 100000000u, 100000000u * 100000000u,
                               18446744073709551615u, 9223372036854775807u, 9223372036854775808u});
  std::uint64_t x = 0x9E3779B97F4A7C15u;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    values.push_back(x >> (i % 64));
  }
  for (std::uint64_t v : values) {
    DeadLetterRecord r = captured("/user/n", "v");
    r.id = v;
    r.replay_count = static_cast<std::uint32_t>(v);
    r.timestamp_ms = static_cast<std::int64_t>(v);  // negative too, INT64_MIN included
    EXPECT_EQ(r.to_json(), nlohmann_record(r)) << v;
    r.timestamp_ms = -static_cast<std::int64_t>(v >> 1);
    EXPECT_EQ(r.to_json(), nlohmann_record(r)) << v;
  }
}

// Random byte strings (mostly ASCII, some high and control bytes) escape as nlohmann escapes them.
TEST(DeadLetterRecord, RandomStringsEscapeAsNlohmannEscapesThem) {
  std::mt19937 rng(20261201);
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) {
      const unsigned pick = rng() % 10;
      c = static_cast<char>(pick < 5   ? 0x20 + rng() % 0x5f
                            : pick < 7 ? rng() % 0x20
                                       : 0x80 + rng() % 0x80);
    }
    std::string ours;
    append_json_string(ours, s);
    ASSERT_EQ(ours,
              nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        << "round " << round;
  }
}

// A payload carried as JSON text (the capture path) is written as it is and
// reads back as the value it spells; the rest of the record is unchanged.
TEST(DeadLetterRecord, ValueTextIsWrittenAsItIsAndReadsBackAsItsValue) {
  DeadLetterRecord r = captured("/user/a", "x");
  const std::string text = R"({"$t":"object","v":{"kind":"order","id":1},"k":["kind","id"]})";
  r.value_text = text;
  const std::string json = r.to_json();
  EXPECT_NE(json.find(",\"v\":" + text + "}"), std::string::npos) << json;
  const DeadLetterRecord back = DeadLetterRecord::from_json(json);
  EXPECT_EQ(back.value, nlohmann::json::parse(text));
  EXPECT_EQ(back.tag, r.tag);
  EXPECT_EQ(back.recipient_path, r.recipient_path);
  EXPECT_EQ(back.sender_path, r.sender_path);
  EXPECT_EQ(back.id, r.id);
  EXPECT_EQ(back.timestamp_ms, r.timestamp_ms);
  EXPECT_EQ(back.replay_count, r.replay_count);
  EXPECT_EQ(back.cause, r.cause);
  EXPECT_EQ(back.drop_reason, r.drop_reason);
  EXPECT_EQ(back.degraded_class, r.degraded_class);
}

// A record as the builds before the hand-written writer put it in journals
// (keys sorted, the payload value re-dumped) still reads field by field.
TEST(DeadLetterRecord, RecordWrittenByTheEarlierWriterStillReads) {
  const std::string old =
      R"({"id":12,"k":"captured","n":1,"p":{"c":"Object","t":"js","v":{"$t":"object",)"
      R"("k":["kind","id"],"v":{"id":1,"kind":"order"}}},"pol":"drop-new","r":"/user/gone",)"
      R"("s":null,"ts":1764547200000,"why":"dropped"})";
  const DeadLetterRecord r = DeadLetterRecord::from_json(old);
  EXPECT_EQ(r.kind, DeadLetterRecord::Kind::kCaptured);
  EXPECT_EQ(r.id, 12u);
  EXPECT_EQ(r.replay_count, 1u);
  EXPECT_EQ(r.recipient_path, "/user/gone");
  EXPECT_FALSE(r.sender_path.has_value());
  EXPECT_EQ(r.timestamp_ms, 1764547200000);
  EXPECT_EQ(r.cause, DeadLetterCause::kDropped);
  EXPECT_EQ(r.drop_reason, DropReason::kDropNew);
  EXPECT_EQ(r.tag, std::optional<std::string>("js"));
  EXPECT_EQ(r.value["v"]["kind"], "order");
  // Written again, it is the same bytes.
  EXPECT_EQ(r.to_json(), old);
}

}  // namespace
}  // namespace mailroom::detail
