#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "mailroom/in_memory_journal.hpp"

namespace mailroom {
namespace {

std::vector<std::uint64_t> sequences(const JournalReadResult& r) {
  std::vector<std::uint64_t> out;
  for (const auto& record : r.records) out.push_back(record.sequence);
  return out;
}

// Appends are numbered 1, 2, 3 per stream and read back oldest first.
TEST(InMemoryJournal, AppendsAreNumberedAndReadInOrder) {
  InMemoryJournal journal;
  EXPECT_EQ(journal.append("s", "a"), 1u);
  EXPECT_EQ(journal.append("s", "b"), 2u);
  EXPECT_EQ(journal.append("s", "c"), 3u);
  const JournalReadResult r = journal.read("s");
  EXPECT_EQ(sequences(r), (std::vector<std::uint64_t>{1, 2, 3}));
  EXPECT_EQ(r.records[0].payload, "a");
  EXPECT_EQ(r.records[2].payload, "c");
  EXPECT_FALSE(r.damaged);
}

// Two streams never see each other's records or sequence numbers.
TEST(InMemoryJournal, StreamsAreIsolated) {
  InMemoryJournal journal;
  journal.append("a", "1");
  journal.append("b", "2");
  journal.append("a", "3");
  EXPECT_EQ(sequences(journal.read("a")), (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(sequences(journal.read("b")), (std::vector<std::uint64_t>{1}));
  EXPECT_TRUE(journal.read("unknown").records.empty());
}

// delete_up_to drops the prefix; sequences continue even after dropping every record.
TEST(InMemoryJournal, DeleteUpToKeepsSequencesGoing) {
  InMemoryJournal journal;
  for (int i = 0; i < 5; ++i) journal.append("s", std::to_string(i));
  journal.delete_up_to("s", 3);
  EXPECT_EQ(sequences(journal.read("s")), (std::vector<std::uint64_t>{4, 5}));
  journal.delete_up_to("s", 99);
  EXPECT_TRUE(journal.read("s").records.empty());
  EXPECT_EQ(journal.append("s", "next"), 6u);
  journal.delete_up_to("unknown", 1);  // a no-op, not an error
}

}  // namespace
}  // namespace mailroom
