// Mailbox operations alone, without actors or threads: the cost of one
// enqueue + dequeue pair per mailbox kind, and priority cost by backlog.
#pragma once

#include <memory>
#include <string>

#include "mailroom/message_queue.hpp"

namespace mailroom::bench {

// "unbounded", "bounded-drop-head", "bounded-drop-new", "bounded-reject", "priority"
// (16 levels), "priority-random" (a distinct random double each), and
// "priority-shedding" / "priority-random-shedding" (the same two with a capacity
// and drop-lowest-priority).
// Bounded kinds get a capacity large enough never to overflow in the pair loop
// except where `capacity` says otherwise.
std::shared_ptr<MessageQueue> make_mailbox(const std::string& kind, std::size_t capacity);
Envelope small_envelope(int value);

}  // namespace mailroom::bench
