// Torn and hostile journals: whatever happened to the bytes on disk, reading
// recovers every intact record (before and after the damage), reports the
// damage, keeps the damaged bytes aside, and appending afterwards continues cleanly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
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
    // A RAM-backed folder when there is one: repairs sync, and this test repairs thousands of
    // times.
    std::error_code ec;
    const fs::path base =
        fs::is_directory("/dev/shm", ec) ? fs::path("/dev/shm") : fs::temp_directory_path();
    dir_ = base / ("mailroom-torn-" +
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

  // The record (1-based) holding byte pos; 0 for the file header.
  int record_at(std::size_t pos) const {
    if (pos < kFileHeader) return 0;
    int i = 0;
    while (i + 1 < kRecords && pos >= starts_[i + 1]) ++i;
    return i + 1;
  }
  static std::size_t frame_size(int record) { return kRecordHeader + payload_for(record).size(); }

  static std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  // Every record 1..kRecords except those in `lost` (0 stands for the header: none lost).
  static void expect_all_but(const JournalReadResult& r, const std::set<int>& lost,
                             const std::string& where) {
    std::vector<std::uint64_t> expected;
    for (int i = 1; i <= kRecords; ++i) {
      if (lost.count(i) == 0) expected.push_back(static_cast<std::uint64_t>(i));
    }
    std::vector<std::uint64_t> got;
    for (const auto& record : r.records) {
      got.push_back(record.sequence);
      ASSERT_EQ(record.payload, payload_for(static_cast<int>(record.sequence))) << where;
    }
    ASSERT_EQ(got, expected) << where;
  }

  // The sequence the next append gets after n intact records and a damaged tail of
  // tail_bytes: above every number the tail may have held (each record there took
  // at least a record header), so no damaged record's number is handed out again.
  static std::uint64_t next_after(int n, std::size_t tail_bytes) {
    return static_cast<std::uint64_t>(n) + (tail_bytes + kRecordHeader - 1) / kRecordHeader + 1;
  }

  // After damage: one append gets sequence `expected` and the file (read() rescans it)
  // holds n + 1 clean records. No flush: fsync per offset would make this test slow.
  void expect_append_continues(FileJournal& journal, int n, std::uint64_t expected,
                               const std::string& where) {
    ASSERT_EQ(journal.append("s", "after"), expected) << where;
    const JournalReadResult r = journal.read("s");
    ASSERT_FALSE(r.damaged) << where << ": " << r.damage;
    ASSERT_EQ(r.records.size(), static_cast<std::size_t>(n + 1)) << where;
    ASSERT_EQ(r.records.back().sequence, expected) << where;
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
    expect_append_continues(journal, whole, next_after(whole, clean ? 0 : cut - boundary), where);
  }
}

// A single flipped byte anywhere (fixed seed): every record but the flipped one comes
// back (all of them for a flip in the file header), the damage is reported at the
// flipped frame with one record lost, and appends continue after the last record.
TEST_F(JournalTornTest, SingleByteFlipsLoseOnlyTheFlippedRecord) {
  std::mt19937 rng(20261129u);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t pos = rng() % bytes_.size();
    const auto mask = static_cast<char>(1 + rng() % 255);
    std::string damaged = bytes_;
    damaged[pos] = static_cast<char>(damaged[pos] ^ mask);
    write_bytes(damaged);
    const int flipped = record_at(pos);  // 0: the file header
    const std::string where = "flip at " + std::to_string(pos);
    FileJournal journal(dir_.string());
    const JournalReadResult r = journal.read("s");
    expect_all_but(r, {flipped}, where);
    ASSERT_TRUE(r.damaged) << where;
    ASSERT_EQ(r.damaged_at_offset, flipped == 0 ? 0 : starts_[flipped - 1]) << where;
    ASSERT_EQ(r.skipped_records, flipped == 0 ? 0u : 1u) << where;
    ASSERT_EQ(r.damages.size(), 1u) << where;
    ASSERT_EQ(r.skipped_bytes, flipped == 0 ? kFileHeader : frame_size(flipped)) << where;
    // The next sequence follows the last intact record, or, when the last record was
    // hit, goes above every number it may have held (its own included).
    const std::uint64_t next = journal.append("s", "after");
    if (flipped == kRecords) {
      ASSERT_GE(next, next_after(kRecords - 1, frame_size(kRecords))) << where;
    } else {
      ASSERT_EQ(next, static_cast<std::uint64_t>(kRecords + 1)) << where;
    }
    const JournalReadResult after = journal.read("s");
    ASSERT_FALSE(after.damaged) << where << ": " << after.damage;
    ASSERT_EQ(after.records.size(), static_cast<std::size_t>(kRecords - (flipped == 0 ? 0 : 1) + 1))
        << where;
    // The flipped frame's bytes were kept aside before the rewrite.
    const std::string side = read_file(r.kept_aside);
    const std::string lost = flipped == 0
                                 ? damaged.substr(0, kFileHeader)
                                 : damaged.substr(starts_[flipped - 1], frame_size(flipped));
    ASSERT_NE(side.find(lost), std::string::npos) << where;
    fs::remove(r.kept_aside);
  }
}

// Several flips at once: exactly the records none of whose bytes changed come back.
TEST_F(JournalTornTest, RandomFlipsLoseOnlyTheTouchedRecords) {
  std::mt19937 rng(424242u);
  for (int trial = 0; trial < 200; ++trial) {
    std::string damaged = bytes_;
    std::set<int> touched;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < flips; ++i) {
      const std::size_t pos = kFileHeader + rng() % (bytes_.size() - kFileHeader);
      damaged[pos] = static_cast<char>(damaged[pos] ^ static_cast<char>(1 + rng() % 255));
      touched.insert(record_at(pos));
    }
    write_bytes(damaged);
    FileJournal journal(dir_.string());
    const std::string where = "trial " + std::to_string(trial);
    const JournalReadResult r = journal.read("s");
    expect_all_but(r, touched, where);
    // Lost records are counted from the sequence numbers around a stretch; at
    // the end of the file they are estimated by walking the frames' lengths.
    if (touched.count(kRecords) == 0) {
      ASSERT_EQ(r.skipped_records, touched.size()) << where;
    } else {
      ASSERT_GE(r.skipped_records, 1u) << where;
    }
    ASSERT_GT(journal.append("s", "after"), static_cast<std::uint64_t>(kRecords)) << where;
    const JournalReadResult after = journal.read("s");
    ASSERT_FALSE(after.damaged) << where;
    ASSERT_EQ(after.records.size(), kRecords - touched.size() + 1) << where;
    fs::remove(r.kept_aside);
  }
}

// The case: a damaged frame in the middle, then appends. The records after
// the damage survive the repair (nothing intact is deleted), the bytes are kept aside.
TEST_F(JournalTornTest, DamageInTheMiddleKeepsEveryRecordAfterIt) {
  std::string damaged = bytes_;
  damaged.insert(starts_[50], "garbage that is no frame at all");
  write_bytes(damaged);
  {
    FileJournal journal(dir_.string());
    const JournalReadResult r = journal.read("s");
    expect_all_but(r, {}, "inserted");
    EXPECT_EQ(r.damaged_at_offset, starts_[50]);
    EXPECT_EQ(r.skipped_bytes, 31u);
    EXPECT_EQ(r.skipped_records, 0u);
    EXPECT_NE(r.damage.find("31 bytes skipped"), std::string::npos) << r.damage;
    for (int i = 0; i < 10; ++i) journal.append("s", "after");
    journal.flush();
    EXPECT_NE(read_file(r.kept_aside).find("garbage that is no frame at all"), std::string::npos);
  }
  FileJournal reopened(dir_.string());
  const JournalReadResult r = reopened.read("s");
  EXPECT_FALSE(r.damaged) << r.damage;
  ASSERT_EQ(r.records.size(), static_cast<std::size_t>(kRecords + 10));
  EXPECT_EQ(r.records[99].payload, payload_for(100));
  EXPECT_EQ(r.records.back().sequence, static_cast<std::uint64_t>(kRecords + 10));
}

// Garbage appended after valid records (a half-written batch) is cut by the next append.
TEST_F(JournalTornTest, TrailingGarbageIsCutOffByTheNextAppend) {
  write_bytes(bytes_ + std::string(7, '\xAB'));
  FileJournal journal(dir_.string());
  const JournalReadResult r = journal.read("s");
  expect_prefix(r, kRecords, "garbage");
  EXPECT_TRUE(r.damaged);
  EXPECT_EQ(r.damaged_at_offset, bytes_.size());
  expect_append_continues(journal, kRecords, next_after(kRecords, 7), "garbage");
  EXPECT_EQ(fs::file_size(path_), bytes_.size() + kRecordHeader + 5);
}

// Issue 13: the last record torn or damaged may have been read by someone (its number
// was handed out by append), so after the repair the next append must not hand that
// number out again. The repair and the new record reach the file in one atomic
// replace, so the raised number survives a crash right after it; a compaction that
// drops everything keeps it in the header.
TEST_F(JournalTornTest, AppendAfterADamagedLastRecordNeverReusesItsSequence) {
  for (const std::size_t keep : {std::size_t{3}, kRecordHeader, kRecordHeader + 4}) {
    const std::string where = "last record cut to " + std::to_string(keep) + " bytes";
    write_bytes(bytes_.substr(0, starts_[kRecords - 1] + keep));
    std::uint64_t first = 0;
    {
      FileJournal journal(dir_.string());
      first = journal.append("s", "after");
      ASSERT_GT(first, static_cast<std::uint64_t>(kRecords)) << where;
      // Before any flush or destructor: the file already holds the repair and the record
      // (a second journal reads the storage itself).
      FileJournal reader(dir_.string());
      const JournalReadResult on_disk = reader.read("s");
      ASSERT_FALSE(on_disk.damaged) << where << ": " << on_disk.damage;
      ASSERT_EQ(on_disk.records.back().sequence, first) << where;
    }
    {
      FileJournal reopened(dir_.string());
      const JournalReadResult r = reopened.read("s");
      ASSERT_FALSE(r.damaged) << where << ": " << r.damage;
      ASSERT_EQ(r.records.size(), static_cast<std::size_t>(kRecords));
      ASSERT_EQ(r.records.back().sequence, first) << where;
      ASSERT_EQ(reopened.append("s", "again"), first + 1) << where;
    }
  }
  // Compaction of a damaged stream that drops every record keeps the raised mark.
  write_bytes(bytes_.substr(0, starts_[kRecords - 1] + 20));
  {
    FileJournal journal(dir_.string());
    journal.delete_up_to("s", kRecords);
  }
  FileJournal reopened(dir_.string());
  EXPECT_TRUE(reopened.read("s").records.empty());
  EXPECT_GT(reopened.append("s", "after"), static_cast<std::uint64_t>(kRecords));
}

// A length field claiming gigabytes is damage, not an allocation; reading resumes after it.
TEST_F(JournalTornTest, AbsurdLengthIsReportedNotAllocated) {
  std::string damaged = bytes_;
  for (int i = 0; i < 4; ++i) damaged[starts_[10] + i] = '\xFF';
  write_bytes(damaged);
  FileJournal journal(dir_.string());
  const JournalReadResult r = journal.read("s");
  expect_all_but(r, {11}, "length");
  EXPECT_TRUE(r.damaged);
  EXPECT_EQ(r.damaged_at_offset, starts_[10]);
  EXPECT_NE(r.damage.find("exceeds the limit"), std::string::npos);
}

}  // namespace
}  // namespace mailroom
