// ActorRef's members (declared in the mailbox library's actor_ref.hpp).
#include "mailroom/actor_ref.hpp"

#include "actor_cell.hpp"
#include "mailroom/system_messages.hpp"

namespace mailroom {

namespace {
const std::string kEmpty;
}

const std::string& ActorRef::path() const {
  return cell_ ? cell_->path() : kEmpty;
}
const std::string& ActorRef::local_path() const {
  return cell_ ? cell_->local_path() : kEmpty;
}

void ActorRef::tell(Message message, const ActorRef& sender) const {
  if (!cell_) return;  // an empty ref belongs to no system: nowhere to report it
  // Log/trace context travels on from the message being processed, if any.
  const Envelope* current = detail::current_envelope();
  cell_->tell(Envelope{std::move(message), sender, current ? current->context : nullptr, 0});
}

// A PoisonPill / Kill user message (seed 000). To an actor that has stopped it
// is a tell like any other: a dead letter (seed 002), as from JS.
void ActorRef::stop() const {
  if (!cell_) return;  // an empty ref belongs to no system: nowhere to report it
  cell_->tell(Envelope{PoisonPill{}, ActorRef(), nullptr, 0});
}

void ActorRef::kill() const {
  if (!cell_) return;
  cell_->tell(Envelope{Kill{}, ActorRef(), nullptr, 0});
}

bool ActorRef::is_terminated() const {
  return !cell_ || cell_->is_terminated();
}

std::uint64_t ActorRef::uid() const {
  return cell_ ? cell_->uid() : 0;
}

}  // namespace mailroom
