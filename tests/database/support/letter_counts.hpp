#pragma once
// The database journals' count of live dead letters (Journal::count_letters)
// against the fold a restore makes (read_dead_letter_journal), on records of
// every kind: a letter that came back from a replay (captured twice), a
// purged one (its tombstone), a "cleared", a record that is not the
// dead-letter queue's, and a stream without letters.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>

#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/journal.hpp"
#include "support/journal_records.hpp"

namespace mailroom::testing {

inline void expect_counts_match_the_fold(Journal& journal) {
  const std::string a = "mailroom-dead-letters-a", b = "mailroom-dead-letters-b";
  journal.append(a, captured(1, "/user/x"));
  journal.append(a, captured(2, "/user/x"));
  journal.append(a, R"({"k":"cleared"})");  // 1 and 2 go
  journal.append(a, captured(3, "/user/x"));
  journal.append(a, captured(4, "/user/y"));
  journal.append(a, captured(3, "/user/z"));  // 3 returned from a replay: still one letter
  journal.append(a, removed(4));              // 4 purged
  journal.append(a, captured(5, "/user/y"));
  journal.append(b, captured(1, "/user/x"));
  journal.append(b, "not a dead-letter record");
  journal.append("mailroom-dead-letters-none", removed(9));
  const auto counts = journal.count_letters();
  ASSERT_TRUE(counts.has_value());
  EXPECT_EQ(*counts, (std::map<std::string, std::uint64_t>{{a, 2}, {b, 1}}));
  for (const std::string& stream : {a, b}) {
    EXPECT_EQ(read_dead_letter_journal(journal.read(stream)).letters.size(), counts->at(stream))
        << stream;
  }
}

}  // namespace mailroom::testing
