// A memory-store DeadLetterQueue on a fake clock and a FakeReplayTarget: the
// fixture of the queue-level tests (index, change feed).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "mailroom/dead_letter_queue.hpp"
#include "support/dead_letter_fakes.hpp"

namespace mailroom::testing {

struct MemoryQueueHarness {
  explicit MemoryQueueHarness(std::size_t max_entries = 1000, std::int64_t retention_ms = 0) {
    DeadLetterQueueSettings s;
    s.store = DeadLetterStore::kMemory;
    s.max_entries = max_entries;
    s.retention_ms = retention_ms;
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.now_ms = [this] { return clock; };
    queue = std::make_unique<DeadLetterQueue>(s, d);
    target.set_sink(queue.get());
  }
  // Captures a letter carrying `value`, addressed to `recipient`, with no sender.
  template <class T>
  void capture(T value, std::string recipient) {
    queue->capture(make_letter(Message(std::move(value)), std::move(recipient)));
  }

  // A literal is captured as the std::string it reads as, not as a pointer.
  void capture(const char* text, std::string recipient) {
    capture(std::string(text), std::move(recipient));
  }

  std::int64_t clock = 1000;
  FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

}  // namespace mailroom::testing
