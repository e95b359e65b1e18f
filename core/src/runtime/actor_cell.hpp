// ActorCell: the runtime side of one actor — its mailbox, instance, children,
// watchers, stash and lifecycle. Any-thread members are marked; everything
// else runs only on the actor's own turn (one thread at a time, guaranteed by
// the scheduled_ flag).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "mailroom/actor.hpp"
#include "mailroom/actor_context.hpp"
#include "mailroom/actor_options.hpp"
#include "mailroom/actor_ref.hpp"
#include "mailroom/actor_snapshot.hpp"
#include "mailroom/completion.hpp"
#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/detail/thread_policy.hpp"
#include "mailroom/envelope.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/logger.hpp"
#include "mailroom/mailbox.hpp"

namespace mailroom::detail {

class SystemCore;

enum class CellState : int {
  kNew,         // Create not processed yet
  kRunning,     // taking messages
  kRestarting,  // old instance gone, waiting for its children to stop
  kStopping,    // waiting for its children to stop
  kTerminated,  // post_stop done; every later message is a dead letter
};

class ActorCell : public std::enable_shared_from_this<ActorCell> {
 public:
  struct Init {
    std::shared_ptr<SystemCore> system;
    ActorRef parent;  // empty for the root guardian
    std::string name;
    std::string local_path;
    std::string path;
    ActorFactory factory;
    ActorOptions options;
    std::shared_ptr<MessageQueue> mailbox;  // the user queue, claimed by the caller
    std::uint64_t uid = 0;
    bool guardian = false;
  };

  // Use create() (or spawn_child): the cell needs a self ref and drop wiring.
  explicit ActorCell(Init init);
  static std::shared_ptr<ActorCell> create(Init init);
  // A ref that only carries a path: every tell becomes a dead letter.
  static std::shared_ptr<ActorCell> ghost(std::shared_ptr<SystemCore> system,
                                          std::string local_path, std::string path);
  // The system's dead-letter office: a ghost that records a DeadLetter told to
  // it as it is instead of wrapping it.
  static std::shared_ptr<ActorCell> dead_letter_office(std::shared_ptr<SystemCore> system,
                                                       std::string local_path, std::string path);
  ~ActorCell();

  // ---- any thread ----
  const std::string& path() const noexcept { return path_; }
  const std::string& local_path() const noexcept { return local_path_; }
  const std::string& name() const noexcept { return name_; }
  std::uint64_t uid() const noexcept { return uid_; }
  bool is_ghost() const noexcept { return mailbox_ == nullptr; }
  bool is_guardian() const noexcept { return guardian_; }
  bool is_terminated() const noexcept {
    return state_.load(std::memory_order_acquire) == CellState::kTerminated;
  }
  SystemCore& system() const noexcept { return *system_; }

  // A user message (tell). MailboxFullError (reject) carries this actor's
  // local path. A dead or ghost cell dead-letters it.
  void tell(Envelope&& envelope);
  // A death notification (never shed by a capacity).
  void signal(Envelope envelope);
  void send_system(Message message);
  void schedule();

  // Reserves `name` among the live children and starts the child.
  std::shared_ptr<ActorCell> spawn_child(ActorFactory factory, std::string name,
                                         ActorOptions options);
  std::shared_ptr<ActorCell> child(const std::string& name) const;
  std::vector<std::shared_ptr<ActorCell>> children() const;
  bool has_children() const;
  // The system adopts its guardians this way (they skip Create: start_now()).
  void add_child(std::shared_ptr<ActorCell> child);
  // Called by a child once it is fully stopped: its name is free again.
  void remove_child(const ActorCell* child);
  ActorSnapshot snapshot() const;
  std::string class_name() const;
  std::size_t user_depth() const { return mailbox_ ? mailbox_->size() : 0; }
  const MailboxDescription& mailbox_description() const noexcept { return description_; }
  // Set by the first drop the system counts for this actor (any thread): its
  // actor_mailbox_dropped_total series then leave the registry when it stops.
  void note_drop_counted() noexcept { drop_counted_.store(true, std::memory_order_relaxed); }

  // Guardians are started synchronously by the system; everyone else by Create.
  void start_now();

  // ---- dispatcher ----
  // Processes at most `max_messages` (0 = throughput). Re-schedules itself if
  // work remains. Returns the number of messages processed.
  std::size_t run(std::size_t max_messages);
  // A turn that, once a throughput's worth is done, goes on (up to `up_to`
  // messages in all) while `others_waiting(dispatcher)` says no other actor
  // waits for the thread: a lone busy actor skips the end and the start of a
  // turn per throughput's worth, and whoever it wakes still runs as soon as
  // a throughput's worth is done. (The host-driven dispatcher, and the thread
  // pool's workers.)
  struct TurnExtension {
    std::size_t up_to;
    bool (*others_waiting)(const void* dispatcher) noexcept;
    const void* dispatcher;
  };
  std::size_t run(std::size_t max_messages, const TurnExtension& extension);
  // Where a dispatcher keeps its reference while the cell waits somewhere only
  // a raw pointer fits (a thread pool's run-next slot). Only the thread that
  // holds the cell's turn-to-come (it took the cell out of a queue or slot, or
  // is scheduling it) touches it, so it needs no lock.
  void park(std::shared_ptr<ActorCell> self) noexcept { parked_ = std::move(self); }
  std::shared_ptr<ActorCell> unpark() noexcept { return std::move(parked_); }

  // ---- the actor's own turn (ActorContext forwards here) ----
  ActorContext& context() noexcept { return context_; }
  const ActorRef& self_ref() const noexcept { return self_; }
  const ActorRef& parent_ref() const noexcept { return parent_; }
  const ActorRef& current_sender() const noexcept;
  const Logger& logger() const noexcept { return logger_; }
  const ActorOptions& options() const noexcept { return options_; }
  void stash();
  void unstash_all();
  std::size_t stash_size() const noexcept { return stash_count_.load(std::memory_order_relaxed); }
  void become(Receive behaviour, bool discard_old);
  void unbecome();
  Completion defer();
  void watch(const ActorRef& ref);
  void unwatch(const ActorRef& ref);
  void unhandled(const Message& message);
  // Stops every child at once (system message), as a stopping or restarting
  // parent does.
  void terminate_children();

 private:
  // message handling (actor's turn)
  bool can_take_user() const noexcept;
  bool has_runnable_work() const;
  void handle_system(Envelope& envelope);
  void handle_user(Envelope& envelope);
  void invoke(Envelope& envelope);
  void handle_failure(std::exception_ptr error, const Envelope* envelope);
  void handle_child_failed(const ActorRef& child, std::uint64_t uid, std::exception_ptr reason);
  void handle_child_terminated(const ActorRef& child);
  void handle_watch(const ActorRef& watcher);
  bool create_instance(bool restart, std::exception_ptr reason);  // false: it failed
  void begin_restart(std::exception_ptr reason);
  void finish_restart();
  void begin_stop();
  void finish_stop();
  void drain_after_termination();
  void dead_letter(Envelope envelope, DeadLetterCause cause = DeadLetterCause::kStopped);
  void resume_mailbox();
  // The size warning, per send a threshold compare only: against the bound
  // the built-in queue's push returned, else the queue's answer; the warning
  // itself is out of line. `size_bound` counts every push before this one, so
  // a threshold is never stepped over unnoticed.
  void after_enqueue(std::uint64_t size_bound) {
    const std::size_t threshold = next_size_warning_.load(std::memory_order_relaxed);
    if (size_bound < threshold) return;
    if (mailbox_->size_at_least(threshold)) warn_size(threshold);
  }
  // enqueue_user's answer when the queue gave no bound: ask the queue.
  static constexpr std::uint64_t kNoSizeBound = UINT64_MAX;
  void warn_size(std::size_t threshold);
  void reset_size_warning() noexcept;
  // schedule() without its fence, for a caller that already ordered its enqueue.
  void schedule_ordered();
  void tell_counted(Envelope&& envelope);
  // Returns an upper bound on the mailbox's size just after (or kNoSizeBound).
  std::uint64_t enqueue_user(Envelope&& envelope);
  // Closes the user queue and dead-letters what it holds; any thread (the
  // actor's last turn, or a tell that finds the cell terminated after queueing).
  void close_user_queue();
  // A signal, a system message, and a tell to a queue that reports drops
  // register while they touch the mailbox; false when the cell is already
  // terminated (nothing was registered). finish_stop waits for the sends that
  // began before it, so its drain sees every message they queued and every
  // drop they reported. A plain tell does not register (see tell).
  bool begin_send() noexcept;
  void end_send() noexcept { sends_.fetch_sub(1, std::memory_order_release); }
  void await_sends() const noexcept;
  ActorRef self_or_ghost();
  void wire_drop_reporting();
  // A user queue knows nothing of its owner: its MailboxFullError (reject)
  // leaves the cell naming this actor's path.
  template <class F>
  void naming_full_mailbox(F&& touch_mailbox) {
    try {
      touch_mailbox();
    } catch (const MailboxFullError& e) {
      throw MailboxFullError(local_path_, e.capacity());
    }
  }

  // identity and wiring (immutable after construction, except self_/parent_
  // which are cleared once terminated to break reference cycles)
  std::shared_ptr<SystemCore> system_;
  ActorRef self_;
  ActorRef parent_;
  std::string name_, local_path_, path_;
  ActorFactory factory_;
  ActorOptions options_;
  std::unique_ptr<ActorMailbox> mailbox_;  // owns the system queue; null for a ghost
  MailboxDescription description_;
  std::uint64_t uid_ = 0;
  bool guardian_ = false;
  bool office_ = false;
  ActorContext context_;
  Logger logger_;

  // scheduling (plain variables in a single-threaded build: thread_policy.hpp)
  bool enqueue_is_sequentially_consistent_ = false;  // the mailbox's, fixed at construction
  bool counted_sends_ = true;  // tells register (begin_send): the queue reports drops
  detail::Mutex close_mutex_;  // close_user_queue
  detail::Atomic<bool> scheduled_{false};
  std::shared_ptr<ActorCell> parked_;       // park(): the dispatcher's reference, while queued
  detail::Atomic<std::uint32_t> sends_{0};  // beside scheduled_, which every send reads anyway
  detail::Atomic<CellState> state_{CellState::kNew};
  detail::Atomic<std::size_t> next_size_warning_;

  // children (any thread reads; spawn and termination write)
  mutable std::mutex children_mutex_;
  std::map<std::string, std::shared_ptr<ActorCell>, std::less<>> children_;

  // owner-only state
  std::unique_ptr<Actor> actor_;
  std::vector<Receive> behaviours_;
  std::deque<Envelope> stash_;
  const Envelope* current_ = nullptr;
  bool current_stashed_ = false;  // stash() took the message being handled
  std::optional<Envelope> failed_envelope_;
  std::optional<Envelope> deferred_envelope_;
  std::unordered_set<const ActorCell*> awaiting_children_;  // sent Terminate, not yet down
  std::exception_ptr restart_reason_;
  std::shared_ptr<CompletionState> pending_completion_;  // set while a receive is deferred
  bool awaiting_completion_ = false;
  std::uint64_t completion_token_ = 0;
  std::unordered_set<ActorRef, ActorRefHash> watchers_;
  std::unordered_set<ActorRef, ActorRefHash> watching_;
  // supervision bookkeeping, written by the parent while handling our failure
  int restart_count_ = 0;
  std::int64_t restart_window_start_ms_ = 0;

  // observable counters (inspect)
  mutable std::mutex info_mutex_;
  std::string class_name_;  // ActorOptions::class_name() until the instance exists
  std::atomic<bool> drop_counted_{false};
  detail::Atomic<std::size_t> stash_count_{0};
  detail::Atomic<std::uint64_t> processed_{0};
};

// RAII scopes for the thread-locals below.
class ScopedConstruction {
 public:
  explicit ScopedConstruction(ActorContext* context);
  ~ScopedConstruction();

 private:
  ActorContext* previous_;
};
class ScopedEnvelope {
 public:
  explicit ScopedEnvelope(const Envelope* envelope);
  ~ScopedEnvelope();

 private:
  const Envelope* previous_;
};
class ScopedTurn {
 public:
  ScopedTurn();
  ~ScopedTurn();
};

// The context of the actor being constructed on this thread (Actor::Actor()).
ActorContext* constructing_context() noexcept;
// The envelope being processed on this thread, if any (its context travels on
// with every tell made while processing it).
const Envelope* current_envelope() noexcept;
// True while this thread is running an actor's turn.
bool in_actor_turn() noexcept;

}  // namespace mailroom::detail
