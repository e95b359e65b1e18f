#pragma once
// One check both database journals pass (sqlite_journal_test,
// postgres_journal_test): list_stream with a limit reads the journal's pages
// of live letters (Journal::read_live_letters, SQL with LIMIT), and walking
// every page, continued below the last letter's sequence, gives exactly what
// folding the whole stream gives, newest first: over captures in many
// recipients and milliseconds, tombstones, replays that came back (the same
// id captured again), a lifted quarantine, a clear, and rows that are not
// dead-letter records at all, with and without a recipient subtree or time window.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mailroom/actor_path.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/journal.hpp"
#include "support/url_system.hpp"

namespace mailroom::testing {

// A "captured" record of letter `id` to `recipient` at `ts` with `count` replays, payload "m<id>".
inline std::string captured_at(std::uint64_t id, const std::string& recipient, std::int64_t ts,
                               int count = 0) {
  return R"({"k":"captured","id":)" + std::to_string(id) + R"(,"ts":)" + std::to_string(ts) +
         R"(,"r":")" + recipient + R"(","s":null,"n":)" + std::to_string(count) +
         R"(,"why":"no-recipient","p":{"t":"string","v":"m)" + std::to_string(id) +
         R"(","c":"string"}})";
}

// Writes a stream of `letters` captures and the changes above to `writer`.
inline void write_mixed_stream(Journal& writer, const std::string& stream, int letters) {
  writer.acquire(stream);
  auto recipient = [](int i) {
    return std::string(i % 3 == 0 ? "/user/invoices/" : "/user/refunds/") + std::to_string(i % 7);
  };
  // Before a clear: all of these are gone.
  for (int i = 1; i <= 20; ++i) writer.append(stream, captured_at(i, recipient(i), 900 + i));
  writer.append(stream, R"({"k":"cleared"})");
  for (int i = 21; i <= 20 + letters; ++i) {
    // The clock goes back every 50 letters: sequence order is not time order.
    writer.append(stream, captured_at(i, recipient(i), 1'000 + (i % 50), 1));
    if (i % 11 == 0) writer.append(stream, R"({"k":"removed","id":)" + std::to_string(i - 5) + "}");
    if (i % 13 == 0) {  // a replay that came back: the same id captured again, newest
      writer.append(stream, R"({"k":"removed","id":)" + std::to_string(i - 7) + "}");
      writer.append(stream, captured_at(i - 7, recipient(i - 7), 1'000 + (i % 50), 2));
    }
    if (i % 17 == 0)
      writer.append(stream, R"({"k":"released","id":)" + std::to_string(i - 3) + "}");
    if (i % 19 == 0) writer.append(stream, "not a dead-letter record");
    if (i % 23 == 0) writer.append(stream, R"({"k":"from-a-newer-version","id":1})");
  }
  writer.flush();
}

// The fold of the whole stream, newest first, narrowed as `filter` says.
inline std::vector<JournaledDeadLetter> folded(Journal& reader, const std::string& stream,
                                               const DeadLetterFilter& filter) {
  DeadLetterJournalContents all = read_dead_letter_journal(reader, stream);
  std::vector<JournaledDeadLetter> out;
  for (auto it = all.letters.rbegin(); it != all.letters.rend(); ++it) {
    if (filter.since_ms && it->timestamp_ms < *filter.since_ms) continue;
    if (filter.until_ms && it->timestamp_ms > *filter.until_ms) continue;
    if (filter.recipient && !ActorPath::in_subtree(it->recipient_path, *filter.recipient)) continue;
    out.push_back(*it);
  }
  return out;
}

inline std::vector<std::string> described(const std::vector<JournaledDeadLetter>& letters) {
  std::vector<std::string> out;
  for (const auto& l : letters) {
    out.push_back(std::to_string(l.id) + "@" + std::to_string(l.sequence) + " n" +
                  std::to_string(l.replay_count) + " " + l.recipient_path + " " +
                  std::to_string(l.timestamp_ms) + " " + l.value.dump());
  }
  return out;
}

inline void expect_live_pages_match_the_fold(const std::string& url, Journal& writer) {
  const std::string stream = "mailroom-dead-letters-billing";
  write_mixed_stream(writer, stream, 600);
  UrlSystem shop("shop", url);
  // The journal pages: five letters, newest first, without reading the stream.
  auto page = writer.read_live_letters(stream, {}, std::nullopt, 5);
  ASSERT_TRUE(page.has_value());
  ASSERT_EQ(page->size(), 5u);
  for (std::size_t i = 1; i < page->size(); ++i) {
    EXPECT_GT((*page)[i - 1].captured.sequence, (*page)[i].captured.sequence);
  }
  std::vector<DeadLetterFilter> filters(4);
  filters[1].recipient = "/user/invoices";
  filters[2].since_ms = 1'010;
  filters[2].until_ms = 1'030;
  filters[3].recipient = "/user/refunds/3";
  filters[3].until_ms = 1'020;
  for (const DeadLetterFilter& base : filters) {
    const std::vector<JournaledDeadLetter> want = folded(writer, stream, base);
    ASSERT_GT(want.size(), 5u);
    for (std::size_t limit : {1u, 7u, 64u, 1000u}) {
      std::vector<JournaledDeadLetter> walked;
      DeadLetterFilter filter = base;
      filter.limit = limit;
      for (int pages = 0; pages < 1'000; ++pages) {
        const auto got = shop.queue().list_stream(stream, filter);
        ASSERT_LE(got.size(), limit);
        walked.insert(walked.end(), got.begin(), got.end());
        if (got.size() < limit) break;
        filter.before = got.back().sequence;
      }
      EXPECT_EQ(described(walked), described(want)) << "limit " << limit;
    }
  }
}

}  // namespace mailroom::testing
