// DeadLetterQueue: capture, inspection and replay. The journal side lives in
// dead_letter_queue_journal.cpp.
#include "mailroom/dead_letter_queue.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <utility>

#include "change_log.hpp"
#include "dead_letter_record.hpp"
#include "entry_ring.hpp"
#include "error_text.hpp"
#include "journal_syncer.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "mailroom/system_messages.hpp"
#include "recipient_path.hpp"

namespace mailroom {

using detail::DeadLetterRecord;
using detail::EntryRing;
using detail::StoredEntry;

namespace {

// Distinct per queue in a process (the counter) and across runs (the clocks),
// without a random device (absent on some wasm hosts).
std::uint64_t draw_list_epoch(const void* self) {
  static std::atomic<std::uint64_t> made{0};
  std::uint64_t x = made.fetch_add(1) * 0x9E3779B97F4A7C15ull;
  x ^= static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  x ^= static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count())
       << 17;
  x ^= reinterpret_cast<std::uintptr_t>(self);
  // splitmix64's finaliser spreads every input bit.
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace

DeadLetterQueue::DeadLetterQueue(DeadLetterQueueSettings settings, Dependencies deps)
    : list_epoch_(draw_list_epoch(this)),
      settings_(std::move(settings)),
      deps_(std::move(deps)),
      ring_(std::make_unique<EntryRing>()),
      changes_(std::make_unique<detail::ChangeLog>(kChangeLogCapacity)) {
  next_compaction_check_ = kCompactionSlack;
  if (deps_.metrics != nullptr && settings_.store != DeadLetterStore::kOff) {
    // Resolved once so counting on the capture path is one atomic add.
    const char* help = "Undeliverable messages seen by the dead-letter queue, by outcome.";
    const char* names[3] = {"captured", "replayed", "replay-failed"};
    for (int i = 0; i < 3; ++i) {
      counters_[i] =
          &deps_.metrics->counter("actor_dead_letters_total", help, Labels{{"outcome", names[i]}});
    }
  }
  if (persistent()) {
    if (!deps_.journal) {
      throw OptionsError("DeadLetterQueue", "journal", "null",
                         "the persistent store needs a journal");
    }
    // One writer per stream: a second queue on a stream someone writes is
    // refused here (JournalLockedError), before anything is read or merged.
    deps_.journal->acquire(settings_.persistence_id);
    sync_within_ms_ = settings_.sync_within_ms.value_or(deps_.journal->default_sync_within_ms());
    restore();
#if !defined(__EMSCRIPTEN__)
    // After the restore: its thread never sees a queue half built.
    if (!deps_.sync_timer) {
      syncer_ = std::make_unique<detail::JournalSyncer>([this] { sync_due(); });
    }
#endif
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (records_in_log_ > 0) arm_sync_locked();  // a repair the restore wrote
    }
    register_backlog_gauge();
  }
}

DeadLetterQueue::~DeadLetterQueue() {
  syncer_.reset();  // its thread calls into this queue: stopped first
  try {
    flush();
    release_journal();
  } catch (...) {
    // Destruction must not throw; flush() already reported what it could.
  }
}

bool DeadLetterQueue::keeps_entries() const noexcept {
  return settings_.store == DeadLetterStore::kMemory ||
         settings_.store == DeadLetterStore::kPersistent;
}

bool DeadLetterQueue::persistent() const noexcept {
  return settings_.store == DeadLetterStore::kPersistent;
}

std::int64_t DeadLetterQueue::now() const {
  if (deps_.now_ms) return deps_.now_ms();
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void DeadLetterQueue::count(Outcome outcome) const noexcept {
  if (Counter* counter = counters_[static_cast<int>(outcome)]) counter->inc();
}

void DeadLetterQueue::damage(const std::string& what) const noexcept {
  if (!deps_.report_damage) return;
  try {
    deps_.report_damage(what);
  } catch (...) {
  }
}

// ---------------------------------------------------------------- capture --

void DeadLetterQueue::capture(const DeadLetter& letter) noexcept {
  if (settings_.store == DeadLetterStore::kOff) return;
  if (settings_.store == DeadLetterStore::kMetrics) {
    count(Outcome::kCaptured);
    return;
  }
  try {
    // Deferred (a host that pumps): the record is queued, encoded later.
    const bool defer = persistent() && defer_records_.load(std::memory_order_acquire);
    // Encoding runs user codecs, so it happens before taking the lock.
    std::optional<DeadLetterRecord> record;
    if (persistent() && !defer) {
      record.emplace();
      encode_payload(letter.message, *record);
    }
    const std::int64_t now_ms = now();
    bool returned = false;
    bool wake = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      returned = capture_locked(letter, record ? &*record : nullptr, defer, now_ms);
      wake = defer && pending_.size() == 1;  // the queue just turned non-empty
    }
    if (wake && pending_wake_) pending_wake_();
    // A replayed letter failing again is the replay failing, not a new capture.
    count(returned ? Outcome::kReplayFailed : Outcome::kCaptured);
    notify_changed();
  } catch (...) {
    try {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.capture_failures;
    } catch (...) {
    }
    damage("dead-letter capture failed: " + detail::error_text(std::current_exception()));
  }
}

bool DeadLetterQueue::capture_locked(const DeadLetter& letter, DeadLetterRecord* record, bool defer,
                                     std::int64_t now_ms) {
  expire_locked(now_ms);
  StoredEntry stored;
  DeadLetterEntry& entry = stored.entry;
  bool returned = false;
  // Identity, never value: only the envelope's replay_entry says "this is
  // the entry I replayed".
  if (letter.replay_entry != 0) {
    if (auto it = replayed_.find(letter.replay_entry); it != replayed_.end()) {
      entry.id = letter.replay_entry;
      entry.replay_count = it->second.replay_count;
      replayed_.erase(it);
      returned = true;
      ring_->remove(entry.id);  // its slot, if a delivery is still in flight
    }
  }
  if (!returned) entry.id = next_id_++;
  entry.timestamp_ms = now_ms;
  entry.recipient_path = letter.recipient_path;
  if (!letter.sender_path.empty()) entry.sender_path = letter.sender_path;
  entry.sender = letter.sender;
  entry.payload = DeadLetterEntry::Captured{letter.message};
  entry.cause = letter.cause;
  entry.drop_reason = letter.drop_reason;

  if (record != nullptr) {
    describe_entry(entry, *record);
    stored.sequence = append_locked(record->to_json());
  }
  const std::uint64_t id = entry.id;
  if (defer) {
    pending_.push_back(id);
    arm_sync_locked();  // the bound counts from the capture, not the encoding
  }
  ring_->push(std::move(stored));
  changes_->note(returned ? detail::ChangeLog::Kind::kUpdated : detail::ChangeLog::Kind::kCaptured,
                 id);
  ++(returned ? stats_.returned : stats_.captured);
  enforce_cap_locked();
  if (record != nullptr) maybe_compact_locked();
  return returned;
}

void DeadLetterQueue::expire_locked(std::int64_t now_ms) {
  if (settings_.retention_ms <= 0) return;
  std::vector<std::uint64_t> ids;
  stats_.aged_out += ring_->age_out(now_ms - settings_.retention_ms, &ids);
  changes_->note_removed(ids, DeadLetterRemoval::kAgedOut);
}

void DeadLetterQueue::enforce_cap_locked() {
  std::vector<std::uint64_t> ids;
  stats_.evicted += ring_->evict_to(settings_.max_entries, &ids);
  changes_->note_removed(ids, DeadLetterRemoval::kEvicted);
}

void DeadLetterQueue::remember_replayed_locked(std::uint64_t id, std::uint32_t replay_count) {
  const std::uint64_t ticket = next_ticket_++;
  replayed_[id] = Replayed{replay_count, ticket};
  replayed_fifo_.emplace_back(id, ticket);
  // Bounded like the ring: a replay that never comes back is forgotten
  // oldest first. Stale fifo items (already returned) are skipped.
  while (replayed_.size() > settings_.max_entries ||
         replayed_fifo_.size() > 2 * settings_.max_entries + kCompactionSlack) {
    auto [old_id, old_ticket] = replayed_fifo_.front();
    replayed_fifo_.pop_front();
    if (auto it = replayed_.find(old_id);
        it != replayed_.end() && it->second.ticket == old_ticket) {
      replayed_.erase(it);
    }
  }
}

// ----------------------------------------------------------- inspection --

DeadLetterEntry DeadLetterQueue::view(const DeadLetterEntry& stored) const {
  DeadLetterEntry entry = stored;
  entry.quarantined = entry.replay_count >= settings_.max_replays;
  return entry;
}

std::optional<std::string> DeadLetterQueue::normalise_filter_path(const std::string& path) const {
  if (deps_.target != nullptr) {
    std::string local = deps_.target->local_path(path);
    if (!local.empty()) return detail::strip_scheme_and_system(local);
    // A full path of another system names none of this queue's letters.
    if (path.find("://") != std::string::npos) return std::nullopt;
  }
  return detail::strip_scheme_and_system(path);
}

std::vector<DeadLetterEntry> DeadLetterQueue::list(const DeadLetterFilter& filter) {
  std::vector<DeadLetterEntry> out;
  if (!keeps_entries() || (filter.limit && *filter.limit == 0)) return out;
  std::optional<std::string> wanted;
  if (filter.recipient) {
    wanted = normalise_filter_path(*filter.recipient);
    if (!wanted) return out;  // another system's path
  }
  const std::int64_t now_ms = now();

  std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(now_ms);
  auto take = [&](const StoredEntry& stored) {
    const DeadLetterEntry& entry = stored.entry;
    if (filter.since_ms && entry.timestamp_ms < *filter.since_ms) return true;
    if (filter.until_ms && entry.timestamp_ms > *filter.until_ms) return true;
    out.push_back(view(entry));
    return !(filter.limit && out.size() >= *filter.limit);
  };
  // By recipient: the ring's path index visits only the wanted subtree. A
  // continued read starts below position filter.before, not at the newest entry.
  if (wanted) {
    ring_->for_each_in_subtree_newest_first(*wanted, take, filter.before);
  } else if (filter.before) {
    ring_->for_each_newest_first_before(*filter.before, take);
  } else {
    ring_->for_each_newest_first(take);
  }
  return out;
}

std::optional<DeadLetterEntry> DeadLetterQueue::get(std::uint64_t id) {
  if (!keeps_entries()) return std::nullopt;
  const std::int64_t now_ms = now();
  std::lock_guard<std::mutex> lock(mutex_);
  expire_locked(now_ms);
  EntryRing::State state;
  const StoredEntry* stored = ring_->find(id, &state);
  if (stored == nullptr || state != EntryRing::State::kLive) return std::nullopt;
  return view(stored->entry);
}

DeadLetterQueue::Stats DeadLetterQueue::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats copy = stats_;
  copy.size = ring_->live();
  return copy;
}

// ---------------------------------------------------------------- replay --

struct DeadLetterQueue::ReplayPlan {
  std::optional<ReplayOutcome> refused;  // set: the replay stops here with this outcome
  std::string path;                      // the path the outcome names
  Message message;
  ActorRef sender;
  std::optional<ActorRef> recipient;
  std::string malformed;  // why the redirect path is malformed, if it is
};

DeadLetterQueue::ReplayPlan DeadLetterQueue::plan_replay(
    std::uint64_t id, const std::optional<std::string>& alternate) {
  ReplayPlan plan;
  auto refuse = [&plan](ReplayOutcome outcome, std::string path) {
    plan.refused = outcome;
    plan.path = std::move(path);
    return std::move(plan);
  };
  if (!keeps_entries()) return refuse(ReplayOutcome::kUnknownEntry, "");

  // 1. Checks on the entry as held now, in the documented order.
  std::optional<std::string> sender_path;
  std::string recorded_path;
  {
    const std::int64_t now_ms = now();
    std::unique_lock<std::mutex> lock(mutex_);
    expire_locked(now_ms);
    EntryRing::State state;
    const StoredEntry* stored = ring_->find(id, &state);
    if (stored == nullptr || state != EntryRing::State::kLive) {
      lock.unlock();
      return refuse(ReplayOutcome::kUnknownEntry, "");
    }
    const DeadLetterEntry& entry = stored->entry;
    recorded_path = entry.recipient_path;
    if (entry.is_degraded()) {
      lock.unlock();
      return refuse(ReplayOutcome::kDegradedPayload, recorded_path);
    }
    const Message& captured = std::get<DeadLetterEntry::Captured>(entry.payload).message;
    // A stop()/kill() that outlived its actor: delivered now it would stop
    // or fail the actor that lives at the path today, which never asked.
    if (captured.is<PoisonPill>() || captured.is<Kill>()) {
      lock.unlock();
      return refuse(ReplayOutcome::kControlMessage, recorded_path);
    }
    if (entry.replay_count >= settings_.max_replays) {
      lock.unlock();
      return refuse(ReplayOutcome::kQuarantined, recorded_path);
    }
    plan.message = captured;
    plan.sender = entry.sender;
    sender_path = entry.sender_path;
  }

  // 2. Resolve the destination afresh, outside the lock (runtime code). With
  // an alternate the recorded path is not resolved at all.
  const std::string destination = alternate ? *alternate : recorded_path;
  plan.path = destination;
  // A malformed redirect names nothing, whatever a lenient lookup would find.
  if (alternate && deps_.target != nullptr) plan.malformed = deps_.target->malformation(*alternate);
  if (!plan.malformed.empty()) return refuse(ReplayOutcome::kUnresolvedRecipient, destination);
  if (deps_.target != nullptr) {
    plan.recipient = deps_.target->resolve_user_actor(destination);
    if (std::string local = deps_.target->local_path(destination); !local.empty()) {
      plan.path = std::move(local);
    }
    // A restored entry has no live sender ref; the recorded path may name one.
    if (!plan.sender && sender_path) {
      plan.sender = deps_.target->resolve_user_actor(*sender_path).value_or(ActorRef());
    }
  }
  if (!plan.recipient) return refuse(ReplayOutcome::kUnresolvedRecipient, destination);
  return plan;
}

ReplayResult DeadLetterQueue::preview_replay(std::uint64_t id,
                                             const std::optional<std::string>& alternate) {
  ReplayPlan plan = plan_replay(id, alternate);
  return ReplayResult{plan.refused.value_or(ReplayOutcome::kReplayed), std::move(plan.path),
                      std::move(plan.malformed)};
}

ReplayResult DeadLetterQueue::replay(std::uint64_t id, std::optional<std::string> alternate) {
  // Every outcome but replayed counts as replay-failed (called without the lock).
  auto failed = [this](ReplayOutcome outcome, std::string path, std::string malformed = {}) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++stats_.replay_failed;
    }
    count(Outcome::kReplayFailed);
    return ReplayResult{outcome, std::move(path), std::move(malformed)};
  };
  drain_pending();  // its own records follow the captures before it
  ReplayPlan plan = plan_replay(id, alternate);
  if (plan.refused) return failed(*plan.refused, std::move(plan.path), std::move(plan.malformed));
  const Message& message = plan.message;
  const ActorRef& sender = plan.sender;
  const ActorRef& recipient = *plan.recipient;
  const std::string& used_path = plan.path;

  // 3. Take the entry out of sight (it may have gone meanwhile) and remember
  // it as replayed *before* delivering: delivery can dead-letter it
  // synchronously, re-entering capture on this thread. Its slot is kept in
  // flight so a refused delivery puts it back where it was.
  {
    std::unique_lock<std::mutex> lock(mutex_);
    EntryRing::State state;
    const StoredEntry* stored = ring_->find(id, &state);
    if (stored == nullptr || state != EntryRing::State::kLive) {
      lock.unlock();
      return failed(ReplayOutcome::kUnknownEntry, "");
    }
    ring_->set_in_flight(id);
    remember_replayed_locked(id, stored->entry.replay_count + 1);
    if (persistent()) {
      DeadLetterRecord removed;
      removed.kind = DeadLetterRecord::Kind::kRemoved;
      removed.id = id;
      append_locked(removed.to_json());
      maybe_compact_locked();
    }
  }

  try {
    deps_.target->deliver(recipient, Envelope{message, sender, {}, id});
  } catch (...) {
    // Refused (MailboxFullError) or failed: nothing is lost, the entry goes
    // back to its place.
    const std::exception_ptr error = std::current_exception();
    std::optional<DeadLetterRecord> record;
    if (persistent()) {
      drain_pending();  // letters the delivery attempt made come first
      record.emplace();
      encode_payload(message, *record);
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      EntryRing::State state;
      StoredEntry* stored = ring_->find(id, &state);
      if (stored != nullptr && state == EntryRing::State::kInFlight) {
        replayed_.erase(id);
        ring_->set_live(id);
        // Readers may have asked while it was out of sight: it is back.
        changes_->note(detail::ChangeLog::Kind::kUpdated, id);
        if (record) {
          describe_entry(stored->entry, *record);
          stored->sequence = append_locked(record->to_json());
        }
        enforce_cap_locked();
      }
    }
    bool rejected = false;
    try {
      std::rethrow_exception(error);
    } catch (const MailboxFullError&) {
      rejected = true;
    } catch (...) {
    }
    notify_changed();
    if (rejected) return failed(ReplayOutcome::kRejected, used_path);
    failed(ReplayOutcome::kRejected, used_path);  // counted as a failed replay, then rethrown
    std::rethrow_exception(error);
  }

  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Only the in-flight slot: if the letter already came back, its new
    // entry (same id) stays.
    EntryRing::State state;
    if (ring_->find(id, &state) != nullptr && state == EntryRing::State::kInFlight) {
      ring_->remove(id);
      changes_->note(detail::ChangeLog::Kind::kRemoved, id, DeadLetterRemoval::kReplayed);
    }
    ++stats_.replayed;
  }
  notify_changed();
  count(Outcome::kReplayed);
  return ReplayResult{ReplayOutcome::kReplayed, used_path, {}};
}

// ---------------------------------------------------------- maintenance --

void DeadLetterQueue::clear() {
  drain_pending();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    clear_locked();
  }
  flush();  // the "cleared" tombstone is durable before clear() returns
  notify_changed();
}

void DeadLetterQueue::clear_locked() {
  ring_->clear();
  changes_->reset();
  replayed_.clear();
  replayed_fifo_.clear();
  if (persistent()) {
    DeadLetterRecord cleared;
    cleared.kind = DeadLetterRecord::Kind::kCleared;
    append_locked(cleared.to_json());
    maybe_compact_locked();
  }
}

}  // namespace mailroom
