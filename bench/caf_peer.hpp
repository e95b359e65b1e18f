// The peer: the same workloads written against CAF 0.17 (Debian libcaf-dev),
// run in the same process as Mailroom's so the ratios compare like with like.
#pragma once

#include <cstddef>

namespace mailroom::bench {

// One sender thread → one actor, `messages` ints; returns when the actor has
// received the last one. `workers` scheduler threads.
void caf_one_to_one(std::size_t workers, std::size_t messages);
// Two actors bounce a message `round_trips` times.
void caf_ping_pong(std::size_t workers, std::size_t round_trips);
// `senders` threads each send `per_sender` messages to one actor.
void caf_many_to_one(std::size_t workers, std::size_t senders, std::size_t per_sender);

}  // namespace mailroom::bench
