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
  explicit CaptureBench(const std::string& store);
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
  explicit ListBench(std::size_t entries);
  ~ListBench();
  std::vector<DeadLetterEntry> list_recipient();

 private:
  std::unique_ptr<DeadLetterQueue> queue_;
};

double bytes_per_queued_envelope(std::size_t count);

}  // namespace mailroom::bench
