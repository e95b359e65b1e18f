#include "mailbox_ops.hpp"

#include <cstdint>
#include <stdexcept>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom::bench {

std::shared_ptr<MessageQueue> make_mailbox(const std::string& kind, std::size_t capacity) {
  if (kind == "unbounded") return std::make_shared<UnboundedMailbox>();
  if (kind.rfind("bounded-", 0) == 0) {
    return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                .with_capacity(static_cast<double>(capacity))
                                                .with_overflow(kind.substr(8)));
  }
  auto sixteen_levels = [](const Envelope& e) {
    return static_cast<double>(e.message.get<int>() % 16);
  };
  if (kind == "priority") {
    return std::make_shared<PriorityMailbox>(
        PriorityMailboxOptions::create().with_priority_for(sixteen_levels));
  }
  if (kind == "priority-shedding") {
    return std::make_shared<PriorityMailbox>(PriorityMailboxOptions::create()
                                                 .with_priority_for(sixteen_levels)
                                                 .with_capacity(static_cast<double>(capacity))
                                                 .with_overflow("drop-lowest-priority"));
  }
  // A distinct double per message (a multiplicative hash of its value).
  auto random_rank = [](const Envelope& e) {
    const auto x = static_cast<std::uint32_t>(e.message.get<int>()) * 2654435761u;
    return static_cast<double>(x) / 4294967296.0;
  };
  if (kind == "priority-random") {
    return std::make_shared<PriorityMailbox>(
        PriorityMailboxOptions::create().with_priority_for(random_rank));
  }
  if (kind == "priority-random-shedding") {
    // The same, bounded with drop-lowest-priority.
    return std::make_shared<PriorityMailbox>(PriorityMailboxOptions::create()
                                                 .with_priority_for(random_rank)
                                                 .with_capacity(static_cast<double>(capacity))
                                                 .with_overflow("drop-lowest-priority"));
  }
  throw std::invalid_argument("unknown mailbox kind " + kind);
}

Envelope small_envelope(int value) {
  return Envelope{Message(value), {}, {}, 0};
}

}  // namespace mailroom::bench
