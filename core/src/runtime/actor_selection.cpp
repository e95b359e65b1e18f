#include "mailroom/actor_selection.hpp"

#include "actor_cell.hpp"
#include "system_core.hpp"

namespace mailroom {

std::optional<ActorRef> ActorSelection::resolve() const {
  auto cell = system_->find(system_->local_path(path_));
  if (!cell || cell->is_terminated()) return std::nullopt;
  return ActorRef(cell);
}

void ActorSelection::tell(Message message, const ActorRef& sender) const {
  if (auto ref = resolve()) {
    ref->tell(std::move(message), sender);
    return;
  }
  system_->ghost(path_).tell(std::move(message), sender);
}

}  // namespace mailroom
