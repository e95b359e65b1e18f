// MessageQueue's ownership: claiming, and refusing the public API once owned.
#include "mailroom/message_queue.hpp"

#include <mutex>

#include "mailroom/errors.hpp"

namespace mailroom {

namespace {
// The queue the framework is serving on this thread (FrameworkCall).
thread_local const MessageQueue* serving = nullptr;
}  // namespace

MessageQueue::FrameworkCall::FrameworkCall(const MessageQueue& queue) noexcept
    : previous_(serving) {
  serving = &queue;
}

MessageQueue::FrameworkCall::~FrameworkCall() {
  serving = previous_;
}

bool MessageQueue::try_claim(const void* owner, std::string owner_path) {
  const void* expected = nullptr;
  if (owner_.compare_exchange_strong(expected, owner)) {
    std::lock_guard lock(owner_path_mutex_);
    owner_path_ = std::move(owner_path);
    return true;
  }
  return expected == owner;
}

void MessageQueue::release(const void* owner) noexcept {
  const void* expected = owner;
  owner_.compare_exchange_strong(expected, nullptr);
}

std::string MessageQueue::owner_path() const {
  if (owner() == nullptr) return {};
  std::lock_guard lock(owner_path_mutex_);
  return owner_path_;
}

void MessageQueue::refuse_unless_serving(std::string_view method) const {
  if (serving == this) return;
  const std::string path = owner_path();
  throw IllegalStateError(std::string(method) + " refused: this mailbox belongs to " +
                          (path.empty() ? std::string("an actor") : "actor " + path) +
                          "; only the framework may change an owned mailbox (tell the actor, or "
                          "use a mailbox no actor owns)");
}

}  // namespace mailroom
