// Why a mailbox discarded an envelope. A closed two-value set on purpose: it is
// a metric label ("a queued message" versus "the arriving one").
#pragma once

#include <functional>
#include <optional>
#include <string_view>

namespace mailroom {

struct Envelope;

enum class DropReason {
  kDropHead,  // "drop-head": a queued message was shed
  kDropNew,   // "drop-new": the arriving message was shed
};

std::string_view to_string(DropReason reason) noexcept;
std::optional<DropReason> drop_reason_from_string(std::string_view text) noexcept;

// Called with the reason and the envelope actually discarded, on the thread
// that enqueued, after the mailbox released its lock.
using DropObserver = std::function<void(DropReason, const Envelope&)>;

}  // namespace mailroom
