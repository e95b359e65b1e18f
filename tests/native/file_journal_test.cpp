#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "mailroom/file_journal.hpp"

namespace mailroom {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class FileJournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("mailroom-fj-" + std::string(info->name()) + "-" +
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string dir() const { return dir_.string(); }

  fs::path dir_;
};

std::vector<std::uint64_t> sequences(const JournalReadResult& r) {
  std::vector<std::uint64_t> out;
  for (const auto& record : r.records) out.push_back(record.sequence);
  return out;
}

std::vector<std::string> payloads(const JournalReadResult& r) {
  std::vector<std::string> out;
  for (const auto& record : r.records) out.push_back(record.payload);
  return out;
}

// The directory is created when missing, and a never-written stream reads empty.
TEST_F(FileJournalTest, CreatesItsDirectory) {
  FileJournal journal(dir() + "/nested/deeper");
  EXPECT_TRUE(fs::is_directory(dir() + "/nested/deeper"));
  const JournalReadResult r = journal.read("s");
  EXPECT_TRUE(r.records.empty());
  EXPECT_FALSE(r.damaged);
}

// Appends are numbered and read back in order, buffered ones included, binary payloads intact.
TEST_F(FileJournalTest, AppendThenReadWithoutFlush) {
  FileJournal journal(dir());
  EXPECT_EQ(journal.append("s", "first"), 1u);
  EXPECT_EQ(journal.append("s", std::string("bin\0ary\xFF", 8)), 2u);
  EXPECT_EQ(journal.append("s", ""), 3u);
  const JournalReadResult r = journal.read("s");
  EXPECT_EQ(sequences(r), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(payloads(r), (std::vector<std::string>{"first", std::string("bin\0ary\xFF", 8), ""}));
  EXPECT_FALSE(r.damaged);
}

// After flush a second journal on the same directory (a restart) sees every record,
// and its appends continue the sequence.
TEST_F(FileJournalTest, ReopenContinuesTheSequence) {
  {
    FileJournal journal(dir());
    for (int i = 1; i <= 3; ++i) journal.append("dead-letters", "r" + std::to_string(i));
    journal.flush();
  }
  FileJournal reopened(dir());
  EXPECT_EQ(payloads(reopened.read("dead-letters")), (std::vector<std::string>{"r1", "r2", "r3"}));
  EXPECT_EQ(reopened.append("dead-letters", "r4"), 4u);
  reopened.flush();
  FileJournal third(dir());
  EXPECT_EQ(sequences(third.read("dead-letters")), (std::vector<std::uint64_t>{1, 2, 3, 4}));
}

// Appending without a prior read also continues after the records on disk.
TEST_F(FileJournalTest, AppendWithoutReadContinuesTheSequence) {
  {
    FileJournal journal(dir());
    journal.append("s", "a");
    journal.append("s", "b");
  }  // the destructor flushes
  FileJournal reopened(dir());
  EXPECT_EQ(reopened.append("s", "c"), 3u);
  EXPECT_EQ(payloads(reopened.read("s")), (std::vector<std::string>{"a", "b", "c"}));
}

// Two streams live in two files and never mix records or sequences.
TEST_F(FileJournalTest, StreamsAreIsolated) {
  FileJournal journal(dir());
  journal.append("system-a", "a1");
  journal.append("system-b", "b1");
  journal.append("system-a", "a2");
  EXPECT_EQ(payloads(journal.read("system-a")), (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(payloads(journal.read("system-b")), (std::vector<std::string>{"b1"}));
  EXPECT_EQ(sequences(journal.read("system-b")), (std::vector<std::uint64_t>{1}));
  EXPECT_NE(journal.path_for("system-a"), journal.path_for("system-b"));
}

// Stream ids become safe, distinct file names inside the directory.
TEST_F(FileJournalTest, StreamIdsAreSanitised) {
  FileJournal journal(dir());
  const std::vector<std::string> ids = {"../escape",
                                        "a/b",
                                        "a%2Fb",
                                        "",
                                        "a.b",
                                        "A b",
                                        std::string(400, 'x'),
                                        std::string(400, 'x') + "y"};
  std::vector<std::string> files;
  for (const auto& id : ids) {
    const fs::path p = journal.path_for(id);
    EXPECT_EQ(p.parent_path(), fs::path(dir())) << id;
    EXPECT_LT(p.filename().string().size(), 200u) << id;
    files.push_back(p.filename().string());
    journal.append(id, "payload of " + id);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    for (std::size_t j = i + 1; j < files.size(); ++j) EXPECT_NE(files[i], files[j]);
    EXPECT_EQ(payloads(journal.read(ids[i])), (std::vector<std::string>{"payload of " + ids[i]}));
  }
  EXPECT_FALSE(fs::exists(fs::path(dir()).parent_path() / "escape.journal"));
}

// delete_up_to rewrites the file without the prefix; later sequences are unchanged
// and survive a reopen.
TEST_F(FileJournalTest, DeleteUpToCompactsThePrefix) {
  FileJournal journal(dir());
  for (int i = 1; i <= 5; ++i) journal.append("s", "r" + std::to_string(i));
  journal.flush();
  const auto before = fs::file_size(journal.path_for("s"));
  journal.delete_up_to("s", 3);
  EXPECT_LT(fs::file_size(journal.path_for("s")), before);
  EXPECT_EQ(payloads(journal.read("s")), (std::vector<std::string>{"r4", "r5"}));
  EXPECT_EQ(journal.append("s", "r6"), 6u);
  journal.flush();
  FileJournal reopened(dir());
  EXPECT_EQ(sequences(reopened.read("s")), (std::vector<std::uint64_t>{4, 5, 6}));
  EXPECT_FALSE(fs::exists(journal.path_for("s") + ".tmp"));
}

// Deleting every record keeps the sequence high-water mark, across a reopen too.
TEST_F(FileJournalTest, DeleteEverythingKeepsTheSequenceGoing) {
  {
    FileJournal journal(dir());
    for (int i = 1; i <= 4; ++i) journal.append("s", "r");
    journal.delete_up_to("s", 100);
    EXPECT_TRUE(journal.read("s").records.empty());
    EXPECT_FALSE(journal.read("s").damaged);
  }
  FileJournal reopened(dir());
  EXPECT_EQ(reopened.append("s", "next"), 5u);
  EXPECT_EQ(sequences(reopened.read("s")), (std::vector<std::uint64_t>{5}));
  reopened.delete_up_to("s", 2);  // already gone: a no-op
  reopened.delete_up_to("missing", 2);
  EXPECT_EQ(sequences(reopened.read("s")), (std::vector<std::uint64_t>{5}));
}

// A file that is not a journal is reported as damage at byte 0, and the next append
// starts the stream over.
TEST_F(FileJournalTest, ForeignFileIsReportedThenReplaced) {
  FileJournal journal(dir());
  { std::ofstream(journal.path_for("s"), std::ios::binary) << "hello, I am not a journal"; }
  const JournalReadResult r = journal.read("s");
  EXPECT_TRUE(r.damaged);
  EXPECT_EQ(r.damaged_at_offset, 0u);
  EXPECT_NE(r.damage.find("bad magic"), std::string::npos);
  // Numbering goes above what the 25 unreadable bytes could have held (2 records).
  EXPECT_EQ(journal.append("s", "x"), 3u);
  const JournalReadResult after = journal.read("s");
  EXPECT_FALSE(after.damaged);
  EXPECT_EQ(payloads(after), (std::vector<std::string>{"x"}));
}

// An impossible directory is a clear error at construction.
TEST_F(FileJournalTest, UnusableDirectoryThrows) {
  fs::create_directories(dir());
  { std::ofstream(dir() + "/file") << "x"; }
  EXPECT_THROW(FileJournal(dir() + "/file"), std::runtime_error);
}

}  // namespace
}  // namespace mailroom
