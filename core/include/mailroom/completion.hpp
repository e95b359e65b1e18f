// Completion: the handle of an asynchronous receive (ActorContext::defer()).
// Until complete() or fail() is called, the actor takes no further user
// message (system messages still run). Thread-safe, callable from anywhere,
// once: later calls are ignored.
#pragma once

#include <exception>
#include <memory>

namespace mailroom {

namespace detail {
struct CompletionState;
}

class Completion {
 public:
  Completion() = default;
  explicit Completion(std::shared_ptr<detail::CompletionState> state) : state_(std::move(state)) {}

  // The receive finished: the actor continues with its next message.
  void complete() const;
  // The receive failed: supervision, as if receive had thrown `error`.
  void fail(std::exception_ptr error) const;
  bool valid() const noexcept { return state_ != nullptr; }
  bool done() const noexcept;

 private:
  std::shared_ptr<detail::CompletionState> state_;
};

}  // namespace mailroom
