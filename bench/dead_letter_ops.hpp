// Dead-letter queue costs: capture per letter (memory and persistent stores)
// and list({recipient}) over a full ring; plus memory per queued envelope.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/dead_letter.hpp"
#include "mailroom/dead_letter_entry.hpp"

namespace mailroom {
class DeadLetterQueue;
}

namespace mailroom::bench {

class CaptureBench {
 public:
  // store "memory" or "persistent"; sync_within_ms: the durability bound of
  // the persistent store (60,000: no sync during a run, the cost without it).
  explicit CaptureBench(const std::string& store, std::int64_t sync_within_ms = 50);
  ~CaptureBench();
  void capture_one();

 private:
  std::string dir_;
  std::unique_ptr<DeadLetterQueue> queue_;
  std::vector<DeadLetter> letters_;
  std::size_t next_ = 0;
};

class ListBench {
 public:
  // clock_back: the clock went back halfway through the captures.
  explicit ListBench(std::size_t entries, bool clock_back = false);
  ~ListBench();
  std::vector<DeadLetterEntry> list_recipient();
  // Pages through the whole queue newest first, `page` at a time, as
  // deadLetters.list does with a cursor; returns the entries paged. `continued`:
  // each read starts below the cursor's position and stops after page + 1
  // (today's read, in any time order);
  // otherwise the read the list page issued before d793050 (every entry up to
  // the cursor's millisecond copied, the newer ones of that millisecond
  // skipped, one page kept).
  std::size_t page_walk(std::size_t page, bool continued);

 private:
  std::size_t tick_ = 0;  // captures so far: the queue's clock
  std::unique_ptr<DeadLetterQueue> queue_;
};

double bytes_per_queued_envelope(std::size_t count);

}  // namespace mailroom::bench
