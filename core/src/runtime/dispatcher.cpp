#include "mailroom/dispatcher.hpp"

#include "actor_cell.hpp"

namespace mailroom {

std::size_t Dispatcher::run_turn(const std::shared_ptr<detail::ActorCell>& cell,
                                 std::size_t max_messages) {
  return cell->run(max_messages);
}

}  // namespace mailroom
