// Torn and hostile journals: whatever happened to the bytes on disk, reading
// recovers every record before the damage, reports the damage, and appending
// afterwards continues cleanly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "mailroom/file_journal.hpp"

namespace mailroom {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kFileHeader = 20;    // magic, version, base sequence, CRC
constexpr std::size_t kRecordHeader = 16;  // length, sequence, CRC
constexpr int kRecords = 100;

std::string payload_for(int i) {
  return "letter-" + std::to_string(i) + std::string(i % 9, '*');
}

class JournalTornTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mailroom-torn-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::remove_all(dir_);
    {
      FileJournal journal(dir_.string());
      for (int i = 1; i <= kRecords; ++i) journal.append("s", payload_for(i));
      journal.flush();
      path_ = journal.path_for("s");
    }
    bytes_ = read_bytes();
    std::size_t at = kFileHeader;
    for (int i = 1; i <= kRecords; ++i) {
      starts_.push_back(at);
      at += kRecordHeader + payload_for(i).size();
    }
    ASSERT_EQ(at, bytes_.size());  // the framing is what this test assumes
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string read_bytes() const {
    std::string out;
    std::FILE* f = std::fopen(path_.c_str(), "rb");
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) out.append(buffer, n);
    std::fclose(f);
    return out;
  }

  void write_bytes(const std::string& bytes) const {
    std::FILE* f = std::fopen(path_.c_str(), "wb");
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }

  // Records 1..n have the expected sequences and payloads.
  static void expect_prefix(const JournalReadResult& r, int n, const std::string& where) {
    ASSERT_EQ(r.records.size(), static_cast<std::size_t>(n)) << where;
    for (int i = 1; i <= n; ++i) {
      ASSERT_EQ(r.records[i - 1].sequence, static_cast<std::uint64_t>(i)) << where;
      ASSERT_EQ(r.records[i - 1].payload, payload_for(i)) << where;
    }
  }

  // After damage: one append gets sequence n + 1 and the file (read() rescans it) holds
  // n + 1 clean records. No flush: fsync per offset would make this test slow.
  void expect_append_continues(FileJournal& journal, int n, const std::string& where) {
    ASSERT_EQ(journal.append("s", "after"), static_cast<std::uint64_t>(n + 1)) << where;
    const JournalReadResult r = journal.read("s");
    ASSERT_FALSE(r.damaged) << where << ": " << r.damage;
    ASSERT_EQ(r.records.size(), static_cast<std::size_t>(n + 1)) << where;
    ASSERT_EQ(r.records.back().sequence, static_cast<std::uint64_t>(n + 1)) << where;
    ASSERT_EQ(r.records.back().payload, "after") << where;
  }

  fs::path dir_;
  std::string path_;
  std::string bytes_;
  std::vector<std::size_t> starts_;  // byte offset where record i + 1 begins
};

// Cut at every byte offset: exactly the whole records before the cut come back, a cut
// inside the header or a record is reported at that record's start, and appends continue.
TEST_F(JournalTornTest, TruncationAtEveryOffsetRecoversTheWholeRecordsBeforeIt) {
  for (std::size_t cut = 0; cut <= bytes_.size(); ++cut) {
    write_bytes(bytes_.substr(0, cut));
    FileJournal journal(dir_.string());
    const JournalReadResult r = journal.read("s");
    const std::string where = "cut at " + std::to_string(cut);
    int whole = 0;
    while (whole < kRecords &&
           cut >= starts_[whole] + kRecordHeader + payload_for(whole + 1).size()) {
      ++whole;
    }
    expect_prefix(r, whole, where);
    const std::size_t boundary =
        whole == 0 ? (cut < kFileHeader ? 0 : kFileHeader)
                   : starts_[whole - 1] + kRecordHeader + payload_for(whole).size();
    const bool clean = cut == 0 || cut == boundary;
    ASSERT_EQ(r.damaged, !clean) << where;
    if (!clean) {
      ASSERT_EQ(r.damaged_at_offset, boundary) << where;
      ASSERT_FALSE(r.damage.empty()) << where;
    } else {
      ASSERT_TRUE(r.damage.empty()) << where;
    }
    expect_append_continues(journal, whole, where);
  }
}

// A single flipped byte anywhere (fixed seed): the records before the flipped one
// come back, the damage is reported at its start, and appends continue after them.
TEST_F(JournalTornTest, SingleByteFlipsLoseOnlyTheFlippedRecordAndAfter) {
  std::mt19937 rng(20261129u);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t pos = rng() % bytes_.size();
    const auto mask = static_cast<char>(1 + rng() % 255);
    std::string damaged = bytes_;
    damaged[pos] = static_cast<char>(damaged[pos] ^ mask);
    write_bytes(damaged);
    int flipped = 0;  // records wholly before the flipped byte
    while (flipped < kRecords &&
           pos >= starts_[flipped] + kRecordHeader + payload_for(flipped + 1).size()) {
      ++flipped;
    }
    const std::size_t expected_offset = pos < kFileHeader ? 0 : starts_[flipped];
    const std::string where = "flip at " + std::to_string(pos);
    FileJournal journal(dir_.string());
    const JournalReadResult r = journal.read("s");
    expect_prefix(r, pos < kFileHeader ? 0 : flipped, where);
    ASSERT_TRUE(r.damaged) << where;
    ASSERT_EQ(r.damaged_at_offset, expected_offset) << where;
    expect_append_continues(journal, pos < kFileHeader ? 0 : flipped, where);
  }
}

// Garbage appended after valid records (a half-written batch) is cut by the next append.
TEST_F(JournalTornTest, TrailingGarbageIsCutOffByTheNextAppend) {
  write_bytes(bytes_ + std::string(7, '\xAB'));
  FileJournal journal(dir_.string());
  const JournalReadResult r = journal.read("s");
  expect_prefix(r, kRecords, "garbage");
  EXPECT_TRUE(r.damaged);
  EXPECT_EQ(r.damaged_at_offset, bytes_.size());
  expect_append_continues(journal, kRecords, "garbage");
  EXPECT_EQ(fs::file_size(path_), bytes_.size() + kRecordHeader + 5);
}

// A length field claiming gigabytes is damage, not an allocation.
TEST_F(JournalTornTest, AbsurdLengthIsReportedNotAllocated) {
  std::string damaged = bytes_;
  for (int i = 0; i < 4; ++i) damaged[starts_[10] + i] = '\xFF';
  write_bytes(damaged);
  FileJournal journal(dir_.string());
  const JournalReadResult r = journal.read("s");
  expect_prefix(r, 10, "length");
  EXPECT_TRUE(r.damaged);
  EXPECT_EQ(r.damaged_at_offset, starts_[10]);
  EXPECT_NE(r.damage.find("exceeds the limit"), std::string::npos);
}

}  // namespace
}  // namespace mailroom
