#include "mailroom/dispatcher.hpp"

#include "actor_cell.hpp"

namespace mailroom {

std::size_t Dispatcher::run_turn(const std::shared_ptr<detail::ActorCell>& cell,
                                 std::size_t max_messages) {
  return cell->run(max_messages);
}

std::size_t Dispatcher::run_lone_turn(const std::shared_ptr<detail::ActorCell>& cell,
                                      std::size_t up_to,
                                      bool (*others_waiting)(const void* dispatcher) noexcept,
                                      const void* dispatcher) {
  return cell->run(up_to, detail::ActorCell::TurnExtension{up_to, others_waiting, dispatcher});
}

}  // namespace mailroom
