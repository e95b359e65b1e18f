// The one capture slot a system has for dead letters. The runtime hands every
// letter to its sink first (then the opt-in log), then publishes it on the
// event stream.
#pragma once

#include "mailroom/dead_letter.hpp"

namespace mailroom {

class DeadLetterSink {
 public:
  virtual ~DeadLetterSink() = default;
  // Any thread. Must never throw into the sender.
  virtual void capture(const DeadLetter& letter) noexcept = 0;
};

}  // namespace mailroom
