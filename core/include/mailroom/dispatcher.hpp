// Dispatcher: runs actors. schedule() may be called from any thread; a cell is
// handed to it at most once at a time (the cell's own flag guarantees it), so
// an actor never runs on two threads at once.
#pragma once

#include <cstddef>
#include <memory>

namespace mailroom {

namespace detail {
class ActorCell;
}

class Dispatcher {
 public:
  virtual ~Dispatcher() = default;

  // Any thread. Queue the cell for one turn.
  virtual void schedule(std::shared_ptr<detail::ActorCell> cell) = 0;
  // True when other threads do the work (await_termination may block); false
  // when the caller must drive the dispatcher (manual, host-driven).
  virtual bool runs_itself() const noexcept = 0;
  // Drive queued work on the calling thread until none is left; returns the
  // number of messages processed. Only meaningful when !runs_itself().
  virtual std::size_t drain() { return 0; }
  // Stop worker threads. Idempotent. Cells still queued are released.
  virtual void shutdown() {}

 protected:
  // One turn of `cell`: at most min(max_messages, the actor's throughput)
  // messages (0 = just the throughput), system messages first. When work remains the cell
  // re-schedules itself through schedule() (behind everyone already queued).
  // Returns the number of messages processed.
  static std::size_t run_turn(const std::shared_ptr<detail::ActorCell>& cell,
                              std::size_t max_messages = 0);
  // As run_turn, but past a throughput's worth the turn goes on, up to
  // `up_to` messages in all, while `others_waiting(dispatcher)` is false (no
  // other actor waits for this thread: the actor would be queued again behind
  // no one).
  static std::size_t run_lone_turn(const std::shared_ptr<detail::ActorCell>& cell,
                                   std::size_t up_to,
                                   bool (*others_waiting)(const void* dispatcher) noexcept,
                                   const void* dispatcher);
};

}  // namespace mailroom
