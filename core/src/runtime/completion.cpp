#include "mailroom/completion.hpp"

#include "actor_cell.hpp"
#include "completion_state.hpp"
#include "internal_messages.hpp"

namespace mailroom {

namespace {
void finish(const std::shared_ptr<detail::CompletionState>& state, std::exception_ptr error) {
  if (!state || state->done.exchange(true)) return;  // once
  if (auto cell = state->cell.lock()) {
    cell->send_system(detail::sys::CompletionDone{state->token, std::move(error)});
  }
}
}  // namespace

void Completion::complete() const {
  finish(state_, nullptr);
}

void Completion::fail(std::exception_ptr error) const {
  if (!error) error = std::make_exception_ptr(std::runtime_error("deferred receive failed"));
  finish(state_, std::move(error));
}

bool Completion::done() const noexcept {
  return state_ && state_->done.load();
}

}  // namespace mailroom
