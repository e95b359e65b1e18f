#pragma once
// One check both database journals pass (sqlite_journal_test,
// postgres_journal_test): Journal::read_letters leaves out, in SQL, exactly
// the "captured" rows outside the recipient subtree or time window and keeps
// every tombstone, and list_stream over it answers as over the whole stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include <memory>
#include <string>
#include <vector>

#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/journal.hpp"
#include "support/url_system.hpp"

namespace mailroom::testing {

inline void expect_narrowed_reads(const std::string& url, Journal& reader) {
  const std::string stream = "mailroom-dead-letters-billing";
  UrlSystem shop("shop", url);
  UrlSystem billing("billing", url);
  billing.lose("/user/invoices", "root");
  billing.lose("/user/invoices/1", "one");
  billing.lose("/user/invoicesX", "sibling");
  billing.lose("/user/refunds", "refund");
  billing.lose("/user/invoices/2", "two");
  // A tombstone: the purged letter of the subtree must not come back in a narrowed read.
  const auto letters = billing.queue().list();
  std::uint64_t two = 0;
  for (const auto& e : letters)
    if (e.recipient_path == "/user/invoices/2") two = e.id;
  billing.queue().remove({two});
  billing.queue().flush();

  const std::size_t whole = reader.read(stream).records.size();
  EXPECT_EQ(whole, 6u);  // five captured, one removed
  JournalLetterFilter subtree;
  subtree.recipient_root = "/user/invoices";
  // root, one, two (captured) and the tombstone; not the sibling or the refund.
  EXPECT_EQ(reader.read_letters(stream, subtree).records.size(), 4u);
  JournalLetterFilter before_all;
  before_all.until_ms = 0;  // no captured row is that old: only the tombstone is read
  EXPECT_EQ(reader.read_letters(stream, before_all).records.size(), 1u);
  JournalLetterFilter window;
  window.since_ms = 0;
  window.until_ms = INT64_MAX;
  EXPECT_EQ(reader.read_letters(stream, window).records.size(), whole);

  // The queue's cross-stream list gives the same answer as folding everything: two is gone.
  DeadLetterFilter filter;
  filter.recipient = "mailroom://billing/user/invoices";
  std::vector<std::string> got;
  for (const auto& l : shop.queue().list_stream(stream, filter)) got.push_back(l.value);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"one", "root"}));
}

}  // namespace mailroom::testing
