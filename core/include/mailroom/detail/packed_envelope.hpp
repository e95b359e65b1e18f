// EnvelopePacking: an Envelope as a queue node holds it. The fields almost
// every envelope leaves empty (log/trace context, replay entry, signal flag)
// move out of line, so a queued small envelope is one 48-byte node natively
// (its message inline, no box): one allocation per message.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>

#include "mailroom/envelope.hpp"

namespace mailroom::detail {

struct EnvelopePacking {
  struct Rare {
    std::shared_ptr<const EnvelopeContext> context;
    std::uint64_t replay_entry = 0;
    bool signal = false;
  };
  struct Stored {
    Message message;
    ActorRef sender;
    std::unique_ptr<Rare> rare;  // null for an ordinary tell
  };

  static Stored pack(Envelope&& e) {
    Stored s{std::move(e.message), std::move(e.sender), nullptr};
    if (e.context || e.replay_entry != 0 || e.signal) {
      s.rare.reset(new Rare{std::move(e.context), e.replay_entry, e.signal});
    }
    return s;
  }
  static Envelope unpack(Stored&& s) noexcept {
    Envelope e{std::move(s.message), std::move(s.sender), nullptr, 0, false};
    if (s.rare) {
      e.context = std::move(s.rare->context);
      e.replay_entry = s.rare->replay_entry;
      e.signal = s.rare->signal;
    }
    return e;
  }
};

// Values stored as they are.
template <class T>
struct NoPacking {
  using Stored = T;
  static T&& pack(T&& value) noexcept { return std::move(value); }
  static T&& unpack(T&& value) noexcept { return std::move(value); }
};

}  // namespace mailroom::detail
