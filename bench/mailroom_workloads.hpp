// Mailroom's side of the peer workloads (see caf_peer.hpp for CAF's).
#pragma once

#include <cstddef>

namespace mailroom::bench {

void mailroom_one_to_one(std::size_t workers, std::size_t messages);
void mailroom_ping_pong(std::size_t workers, std::size_t round_trips);
void mailroom_many_to_one(std::size_t workers, std::size_t senders, std::size_t per_sender);

}  // namespace mailroom::bench
