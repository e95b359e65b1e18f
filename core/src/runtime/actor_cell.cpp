// ActorCell: construction, the any-thread entry points (tell, signal,
// system messages, scheduling), children and inspection.
#include "actor_cell.hpp"

#include <thread>
#include <utility>

#include "internal_messages.hpp"
#include "mailroom/actor_path.hpp"
#include "mailroom/dispatcher.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/mailbox_size_warning.hpp"
#include "mailroom/system_messages.hpp"
#include "system_core.hpp"

namespace mailroom::detail {

namespace {
constexpr std::size_t kFirstSizeWarning = 10000;

thread_local ActorContext* t_constructing = nullptr;
thread_local const Envelope* t_current = nullptr;
thread_local int t_turn_depth = 0;
}  // namespace

ActorContext* constructing_context() noexcept {
  return t_constructing;
}
const Envelope* current_envelope() noexcept {
  return t_current;
}
bool in_actor_turn() noexcept {
  return t_turn_depth > 0;
}

// RAII setters for the thread-locals above (used by the processing files).
ScopedConstruction::ScopedConstruction(ActorContext* context) : previous_(t_constructing) {
  t_constructing = context;
}
ScopedConstruction::~ScopedConstruction() {
  t_constructing = previous_;
}
ScopedEnvelope::ScopedEnvelope(const Envelope* envelope) : previous_(t_current) {
  t_current = envelope;
}
ScopedEnvelope::~ScopedEnvelope() {
  t_current = previous_;
}
ScopedTurn::ScopedTurn() {
  ++t_turn_depth;
}
ScopedTurn::~ScopedTurn() {
  --t_turn_depth;
}

ActorCell::ActorCell(Init init)
    : system_(std::move(init.system)),
      parent_(std::move(init.parent)),
      name_(std::move(init.name)),
      local_path_(std::move(init.local_path)),
      path_(std::move(init.path)),
      factory_(std::move(init.factory)),
      options_(std::move(init.options)),
      mailbox_(init.mailbox ? std::make_unique<ActorMailbox>(std::move(init.mailbox)) : nullptr),
      uid_(init.uid),
      guardian_(init.guardian),
      context_(*this),
      logger_(system_ ? system_->logger_for(local_path_) : Logger()),
      next_size_warning_(kFirstSizeWarning),
      class_name_(options_.class_name()) {  // the hint, until the instance names itself
  if (mailbox_) {
    description_ = mailbox_->describe();
    enqueue_is_sequentially_consistent_ = mailbox_->enqueue_is_sequentially_consistent();
    counted_sends_ = mailbox_->reports_drops();
  }
}

ActorCell::~ActorCell() {
  if (mailbox_) mailbox_->queue().release(this);
}

std::shared_ptr<ActorCell> ActorCell::create(Init init) {
  auto cell = std::make_shared<ActorCell>(std::move(init));
  cell->self_ = ActorRef(cell);
  cell->wire_drop_reporting();
  return cell;
}

std::shared_ptr<ActorCell> ActorCell::ghost(std::shared_ptr<SystemCore> system,
                                            std::string local_path, std::string path) {
  Init init;
  init.system = std::move(system);
  init.local_path = std::move(local_path);
  init.path = std::move(path);
  auto cell = std::make_shared<ActorCell>(std::move(init));
  cell->state_.store(CellState::kTerminated, std::memory_order_release);
  return cell;
}

std::shared_ptr<ActorCell> ActorCell::dead_letter_office(std::shared_ptr<SystemCore> system,
                                                         std::string local_path, std::string path) {
  auto cell = ghost(std::move(system), std::move(local_path), std::move(path));
  cell->office_ = true;
  return cell;
}

void ActorCell::wire_drop_reporting() {
  if (!mailbox_ || !mailbox_->reports_drops()) return;
  // Read once: dead_letter_drops is fixed at the mailbox's construction.
  const bool dead_letters = mailbox_->dead_letter_drops();
  std::weak_ptr<ActorCell> weak = weak_from_this();
  mailbox_->observe_drops([weak, dead_letters](DropReason reason, const Envelope& envelope) {
    if (auto cell = weak.lock()) cell->system().report_drop(cell, reason, envelope, dead_letters);
  });
}

namespace {
// Ends a registered send however it leaves (MailboxFullError included).
class SendScope {
 public:
  explicit SendScope(detail::Atomic<std::uint32_t>& sends) : sends_(sends) {}
  ~SendScope() { sends_.fetch_sub(1, std::memory_order_release); }
  SendScope(const SendScope&) = delete;
  SendScope& operator=(const SendScope&) = delete;

 private:
  detail::Atomic<std::uint32_t>& sends_;
};
}  // namespace

bool ActorCell::begin_send() noexcept {
  // Pairs with finish_stop (state, then sends): either this sees the cell
  // terminated, or finish_stop sees this send and waits for it.
  sends_.fetch_add(1, std::memory_order_seq_cst);
  if (state_.load(std::memory_order_seq_cst) != CellState::kTerminated) return true;
  end_send();
  return false;
}

void ActorCell::await_sends() const noexcept {
  // The senders are a few instructions from done (or reporting a drop).
  while (sends_.load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
}

void ActorCell::tell(Envelope&& envelope) {
  if (is_ghost()) {
    // A ghost is a path nobody lives at (a selection or ref that resolved to nothing).
    dead_letter(std::move(envelope), DeadLetterCause::kNoRecipient);
    return;
  }
  if (counted_sends_) {
    tell_counted(std::move(envelope));
    return;
  }
  if (is_terminated()) {
    dead_letter(std::move(envelope));
    return;
  }
  const std::uint64_t size_bound = enqueue_user(std::move(envelope));
  // Queued, then the state read, each sequentially consistent (the queue's own
  // write, or this fence): either finish_stop's drain, which follows its
  // store of kTerminated, finds the message, or this sees kTerminated and
  // hands the message to the dead letters itself. No per-send registration.
  if (!enqueue_is_sequentially_consistent_) detail::fence(std::memory_order_seq_cst);
  if (state_.load(std::memory_order_seq_cst) == CellState::kTerminated) {
    close_user_queue();
    return;
  }
  after_enqueue(size_bound);
  schedule_ordered();
}

// A queue that reports drops: a send registers (begin_send), so that
// finish_stop reports every drop a send made before the system's termination
// completes (a dropped message was told earlier and must be accounted for).
void ActorCell::tell_counted(Envelope&& envelope) {
  if (!begin_send()) {
    dead_letter(std::move(envelope));
    return;
  }
  SendScope scope(sends_);
  after_enqueue(enqueue_user(std::move(envelope)));
  schedule();
}

std::uint64_t ActorCell::enqueue_user(Envelope&& envelope) {
  // The built-in unbounded queue: one FIFO push whatever the message, never refused.
  std::uint64_t size_bound = kNoSizeBound;
  if (mailbox_->enqueue_unbounded(envelope, size_bound)) return size_bound;
  // stop()/kill() (or a PoisonPill/Kill told directly): never shed or refused
  // by a capacity, still behind what was sent before it.
  if (envelope.message.is<PoisonPill>() || envelope.message.is<Kill>()) {
    mailbox_->enqueue_control(std::move(envelope));
    return kNoSizeBound;
  }
  naming_full_mailbox([&] { mailbox_->enqueue(std::move(envelope)); });
  return kNoSizeBound;
}

void ActorCell::close_user_queue() {
  // One drainer at a time: finish_stop's drain and a late sender's (tell).
  std::lock_guard<detail::Mutex> lock(close_mutex_);
  // Orders the drain after the kTerminated store (finish_stop) or the push (a
  // late sender), as the reasoning in tell needs.
  detail::fence(std::memory_order_seq_cst);
  // Closed: what is queued, and whatever a sender still slips in, is a dead letter.
  mailbox_->close([this](Envelope envelope) {
    if (envelope.message.is<Terminated>()) return;  // a death notice for the dead: nobody cares
    dead_letter(std::move(envelope));
  });
}

void ActorCell::signal(Envelope envelope) {
  if (is_ghost() || !begin_send()) return;  // nobody left to notify
  SendScope scope(sends_);
  mailbox_->enqueue_signal(std::move(envelope));
  schedule();
}

void ActorCell::send_system(Message message) {
  if (is_ghost() || !begin_send()) {
    // Too late for everything but a watch: answer it at once.
    if (auto watch = message.get_if<sys::Watch>()) {
      watch->watcher.cell()->signal(Envelope{Terminated{self_or_ghost()}, self_or_ghost(), {}, 0});
    }
    return;
  }
  SendScope scope(sends_);
  mailbox_->enqueue_system(Envelope{std::move(message), ActorRef(), {}, 0});
  schedule();
}

ActorRef ActorCell::self_or_ghost() {
  return ActorRef(shared_from_this());
}

void ActorCell::schedule() {
  // Pairs with the fence in run(): either we see scheduled_ == false, or the
  // running turn sees our message after clearing it. The enqueue's own
  // sequentially consistent write orders it before the load when the mailbox
  // promises one; otherwise a fence does.
  if (!enqueue_is_sequentially_consistent_) detail::fence(std::memory_order_seq_cst);
  schedule_ordered();
}

void ActorCell::schedule_ordered() {
  if (is_ghost()) return;
  // A load before the exchange: while the actor is running (the common case
  // under load) a send then costs no write to the line the running turn owns.
  if (scheduled_.load(std::memory_order_seq_cst)) return;
  if (scheduled_.exchange(true, std::memory_order_acq_rel)) return;
  system_->dispatcher().schedule(shared_from_this());
}

void ActorCell::warn_size(std::size_t threshold) {
  const std::size_t size = mailbox_->size();
  // Exactly one enqueuer wins each threshold.
  if (!next_size_warning_.compare_exchange_strong(threshold, threshold * 2)) return;
  logger_.warn("mailbox size reached " + std::to_string(size) + " messages");
  system_->events().publish(MailboxSizeWarning{self_or_ghost(), local_path_, size});
}

void ActorCell::reset_size_warning() noexcept {
  // Only when it changed: senders read this line on every tell.
  if (next_size_warning_.load(std::memory_order_relaxed) != kFirstSizeWarning) {
    next_size_warning_.store(kFirstSizeWarning, std::memory_order_relaxed);
  }
}

void ActorCell::dead_letter(Envelope envelope, DeadLetterCause cause) {
  if (office_) {
    // Told to the office: a letter is recorded as it is (a letter about a
    // letter is dropped there), anything else names the office.
    if (const auto* told = envelope.message.get_if<DeadLetter>()) {
      system_->publish_dead_letter(*told);
      return;
    }
    cause = DeadLetterCause::kPublished;  // sent to the dead letters by hand
  }
  DeadLetter letter;
  letter.cause = cause;
  letter.message = std::move(envelope.message);
  letter.sender = std::move(envelope.sender);
  letter.recipient = self_or_ghost();
  letter.replay_entry = envelope.replay_entry;
  system_->publish_dead_letter(std::move(letter));
}

std::shared_ptr<ActorCell> ActorCell::spawn_child(ActorFactory factory, std::string name,
                                                  ActorOptions options) {
  ActorPath::validate_name(name, local_path_);
  options.validate();
  const CellState state = state_.load(std::memory_order_acquire);
  if (state == CellState::kStopping || state == CellState::kTerminated) {
    throw IllegalStateError("cannot spawn '" + name + "' under " + local_path_ +
                            ": it is stopping");
  }
  {
    std::lock_guard lock(children_mutex_);
    if (children_.count(name)) {
      throw InvalidActorNameError("actor name '" + name +
                                  "' is already taken: " + ActorPath::child(local_path_, name));
    }
  }
  std::shared_ptr<MessageQueue> mailbox = options.make_mailbox();
  Init init;
  init.system = system_;
  init.parent = self_;
  init.local_path = ActorPath::child(local_path_, name);
  init.path = ActorPath::full(system_->name(), init.local_path);
  init.name = name;
  init.factory = std::move(factory);
  init.options = std::move(options);
  init.mailbox = mailbox;
  init.uid = system_->next_uid();
  // Claim before the cell exists so a shared instance never gets an observer.
  auto cell = std::make_shared<ActorCell>(std::move(init));
  if (!mailbox->try_claim(cell.get(), cell->path_)) {
    cell->mailbox_.reset();  // not ours to release
    throw OptionsError("ActorOptions", "mailbox", "<shared instance>",
                       "the mailbox factory returned an instance another actor already owns");
  }
  // Another ActorMailbox around the queue would reach it past the owner's
  // refusal (MessageQueue): refused like a shared instance.
  if (mailbox->wrappers() > 1) {
    mailbox->release(cell.get());
    cell->mailbox_.reset();
    throw OptionsError("ActorOptions", "mailbox", "<wrapped instance>",
                       "the mailbox factory returned a queue another ActorMailbox still wraps");
  }
  cell->self_ = ActorRef(cell);
  {
    std::lock_guard lock(children_mutex_);
    if (!children_.emplace(name, cell).second) {
      throw InvalidActorNameError("actor name '" + name +
                                  "' is already taken: " + cell->local_path_);
    }
  }
  cell->wire_drop_reporting();
  cell->send_system(sys::Create{});
  return cell;
}

void ActorCell::add_child(std::shared_ptr<ActorCell> child) {
  std::lock_guard lock(children_mutex_);
  children_.emplace(child->name_, std::move(child));
}

void ActorCell::remove_child(const ActorCell* child) {
  std::lock_guard lock(children_mutex_);
  auto it = children_.find(child->name_);
  if (it != children_.end() && it->second.get() == child) children_.erase(it);
}

std::shared_ptr<ActorCell> ActorCell::child(const std::string& name) const {
  std::lock_guard lock(children_mutex_);
  auto it = children_.find(name);
  return it == children_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<ActorCell>> ActorCell::children() const {
  std::lock_guard lock(children_mutex_);
  std::vector<std::shared_ptr<ActorCell>> out;
  out.reserve(children_.size());
  for (const auto& entry : children_) out.push_back(entry.second);
  return out;
}

bool ActorCell::has_children() const {
  std::lock_guard lock(children_mutex_);
  return !children_.empty();
}

std::string ActorCell::class_name() const {
  std::lock_guard lock(info_mutex_);
  return class_name_;
}

ActorSnapshot ActorCell::snapshot() const {
  ActorSnapshot s;
  s.path = local_path_;
  s.class_name = class_name();
  s.mailbox_kind = description_.kind;
  s.capacity = description_.capacity;
  if (description_.overflow) s.overflow = std::string(to_string(*description_.overflow));
  s.dead_letter_drops = description_.dead_letter_drops;
  if (mailbox_) {
    s.user_depth = mailbox_->size();
    s.system_depth = mailbox_->system_size();
    s.dropped = mailbox_->dropped_count();
    s.suspended = mailbox_->suspended();
  }
  s.stash_size = stash_count_.load(std::memory_order_relaxed);
  s.processed = processed_.load(std::memory_order_relaxed);
  return s;
}

}  // namespace mailroom::detail
