// DeadLetterQueue: the system's record of undeliverable messages (seed 002).
// off keeps nothing; metrics counts; memory keeps a bounded, ageing ring;
// persistent adds an append-only journal stream read back at construction.
// Only the system installs its own queue as the capture sink: one built by
// hand is a valid object that never receives a letter unless someone calls
// capture. Every member is thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "mailroom/dead_letter_changes.hpp"
#include "mailroom/dead_letter_entry.hpp"
#include "mailroom/dead_letter_filter.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/dead_letter_sink.hpp"
#include "mailroom/journal.hpp"
#include "mailroom/release_outcome.hpp"
#include "mailroom/remove_result.hpp"
#include "mailroom/replay_result.hpp"
#include "mailroom/replay_target.hpp"

namespace mailroom {

class Counter;
class MetricsRegistry;
class PayloadCodecRegistry;
struct JournaledDeadLetter;
namespace detail {
struct DeadLetterRecord;
class EntryRing;
class ChangeLog;
class JournalSyncer;
}  // namespace detail

class DeadLetterQueue final : public DeadLetterSink {
 public:
  struct Dependencies {
    ReplayTarget* target = nullptr;    // null: every replay is unresolved-recipient
    std::shared_ptr<Journal> journal;  // required for the persistent store
    // actor_dead_letters_total{outcome} with outcome captured / replayed /
    // replay-failed (no recipient label). May be null: not counted.
    MetricsRegistry* metrics = nullptr;
    std::function<std::int64_t()> now_ms;                   // null: the system clock
    PayloadCodecRegistry* codecs = nullptr;                 // null: every journal copy is degraded
    std::function<void(const std::string&)> report_damage;  // restore and write problems
    // Persistent store: arms a one-shot timer that calls sync_due() after
    // delay_ms (the host's timer, e.g. setTimeout in the wasm build). Null:
    // natively a syncer thread of the queue's own; in a build without
    // threads nothing syncs before an explicit flush.
    std::function<void(std::int64_t delay_ms)> sync_timer;
  };

  struct Stats {
    std::size_t size = 0;        // entries held now
    std::uint64_t captured = 0;  // new entries
    std::uint64_t returned = 0;  // replayed letters that came back as their entry
    std::uint64_t evicted = 0;   // pushed out by max-entries
    std::uint64_t aged_out = 0;  // older than retention
    std::uint64_t replayed = 0;
    std::uint64_t replay_failed = 0;     // every replay outcome but replayed
    std::uint64_t restored = 0;          // entries read back at construction
    std::uint64_t capture_failures = 0;  // capture swallowed an error (never thrown)
  };

  // Restores a persistent store from deps.journal before returning, so this
  // run's appends never collide with the previous run's sequence numbers.
  // Throws OptionsError{"DeadLetterQueue", "journal", "null"} for a
  // persistent store without a journal, JournalLockedError when another
  // writer holds the journal stream.
  DeadLetterQueue(DeadLetterQueueSettings settings, Dependencies deps);
  ~DeadLetterQueue() override;
  DeadLetterQueue(const DeadLetterQueue&) = delete;
  DeadLetterQueue& operator=(const DeadLetterQueue&) = delete;

  // Any thread; never throws. A letter whose replay_entry names an entry this
  // queue replayed comes back as that entry (same id, replay_count + 1).
  void capture(const DeadLetter& letter) noexcept override;

  // Newest first: in capture order (DeadLetterEntry::position), whatever the
  // clock did; a list continued with `before` the last entry's position
  // continues that order exactly, so a reader may read in pages.
  std::vector<DeadLetterEntry> list(const DeadLetterFilter& filter = {});
  // A number drawn at construction (distinct for every queue of a process and
  // across restarts): names whose positions a position is, so a reader can
  // refuse one another queue gave out.
  std::uint64_t list_epoch() const noexcept { return list_epoch_; }
  std::optional<DeadLetterEntry> get(std::uint64_t id);

  // Checks in order: unknown-entry, degraded-payload, quarantined, then
  // resolves the destination afresh (alternate if given, else the recorded
  // path): unresolved-recipient; delivers with the recorded sender: replayed
  // (entry leaves) or rejected (the mailbox refused; entry stays).
  ReplayResult replay(std::uint64_t id, std::optional<std::string> alternate = std::nullopt);
  // Dry run of replay: the same checks in the same order (the entry as held,
  // then the destination resolved afresh), changing and counting nothing.
  // Answers replayed when every check passes; the delivery itself may still
  // be refused (rejected) by the target's mailbox at the moment of delivery.
  ReplayResult preview_replay(std::uint64_t id,
                              const std::optional<std::string>& alternate = std::nullopt);

  // Other streams of the same journal (a database several processes share),
  // read-only: the dead-letter streams it holds (persistence ids
  // "mailroom-dead-letters-*" and this queue's own), sorted, and one stream's
  // letters as its journal holds them, newest first (by the sequence of each
  // letter's latest captured record, JournaledDeadLetter::sequence, which
  // filter.before continues below), filtered (a recipient
  // path of any system matches by its local part). Payloads stay JSON, never
  // decoded here; a letter of another stream is replayed by the process that
  // owns it, never by writing into its stream. Empty unless persistent.
  // Journal errors propagate (the caller asked for another process's data).
  std::vector<std::string> list_streams();
  std::vector<JournaledDeadLetter> list_stream(const std::string& stream,
                                               const DeadLetterFilter& filter = {});
  // list_streams() with each stream's live letter count (what list_stream
  // without a filter would return, this queue's unflushed appends included):
  // counted by the journal where it can (one query on the database
  // journals), else by reading each stream.
  std::vector<std::pair<std::string, std::size_t>> stream_sizes();

  // Purge: takes the given entries out of the queue, one named outcome per id
  // in the order given (a repeated id answers unknown-entry the second time).
  // Persistent: one "removed" tombstone per removed entry, so a restart does
  // not bring it back. The change feed reports them as removed "purged".
  std::vector<RemoveResult> remove(const std::vector<std::uint64_t>& ids);
  // Dry run of remove: the outcome each id would get now (a repeated id:
  // unknown-entry the second time, as remove answers), removing nothing
  // (entries past retention age out first, as in remove).
  std::vector<RemoveResult> preview_remove(const std::vector<std::uint64_t>& ids);
  // Lifts a quarantine: replay_count goes back to 0, so the entry can be
  // replayed max-replays more times (persistent: a "released" record).
  ReleaseOutcome release(std::uint64_t id);

  // Forgets every entry (persistent: one "cleared" tombstone).
  void clear();
  // Completes the journal appends issued so far (persistent store only),
  // the deferred records first, and makes them durable (natively written
  // and fdatasync'ed; a storage that commits later, IndexedDB, starts it).
  void flush();
  // The durability bound in force: every journal change is flushed at most
  // this many ms after it (settings().sync_within_ms, else the journal's
  // default); nullopt for a store without a journal and no setting.
  // remove, clear, release and replay return only after their records are
  // flushed; a capture is durable within the bound.
  std::optional<std::int64_t> sync_within_ms() const noexcept {
    if (persistent()) return sync_within_ms_;
    return settings_.sync_within_ms;
  }
  // The bound's timer fired (the sync_timer's callback): flushes.
  void sync_due() noexcept;
  // Calls done("") once everything journaled so far is durable (after
  // flush(): at once natively, after the commit where storage confirms
  // later), done(why) when it could not be stored. Memory and off stores
  // call done("") at once. done may run on another thread or later.
  void when_durable(std::function<void(std::string error)> done);

  // Deferred journal records, for a single-threaded host that drives the
  // core in slices (the wasm build's driver). From this call on a persistent
  // capture keeps its entry at once (the very message, listed at once, as the
  // memory store does) and queues its journal record instead of encoding it
  // inside the tell; encode_pending encodes and appends queued records in
  // capture order, and every operation that writes or reads the journal
  // (flush, remove, clear, replay, release, release_journal, list_stream,
  // stream_sizes, the shutdown tasks) drains the queue first, so the
  // journal's order and completeness are what they were. A record whose
  // entry left the queue before its turn (evicted by max-entries, aged out)
  // is not written: it would be dead on arrival. `wake` runs on the
  // capturing thread, outside the lock, when the queue turns non-empty.
  // release_journal (the system is down, its host stops pumping) ends it:
  // later captures are written inside capture again. A no-op unless the
  // store is persistent; natively nobody calls it.
  void defer_journal_records(std::function<void()> wake);
  // Encodes and appends up to max_records queued records, oldest first (a
  // payload that cannot be encoded is journaled degraded, as at capture).
  // Returns how many are still queued.
  std::size_t encode_pending(std::size_t max_records);
  std::size_t pending_records() const;
  // Completes the appends and gives up the journal stream's writer lock, so
  // a new system of the same name may take it (the system calls this once
  // its tree is down; a later capture takes the lock again if it is free).
  void release_journal();

  const DeadLetterQueueSettings& settings() const noexcept { return settings_; }
  Stats stats() const;

  // The change feed. Every capture, return, replay, eviction and ageing
  // bumps the revision; changes_since(R) says what happened after R (the
  // last kChangeLogCapacity changes are remembered; older readers re-list).
  static constexpr std::size_t kChangeLogCapacity = 8192;
  std::uint64_t revision() const;
  DeadLetterChanges changes_since(std::uint64_t revision);
  // f(revision) runs after a change, on the thread that made it, outside the
  // queue's lock (it may call back into the queue). With no listener the
  // capture path pays one relaxed load. Returns an id for remove_change_listener.
  using ChangeListener = std::function<void(std::uint64_t revision)>;
  std::uint64_t add_change_listener(ChangeListener listener);
  void remove_change_listener(std::uint64_t id);

 private:
  // The journal is compacted once it holds this many more records than twice
  // the live entries (most of it dead); amortised O(1) per append.
  static constexpr std::uint64_t kCompactionSlack = 64;

  struct Replayed {
    std::uint32_t replay_count = 0;  // the count the entry has if it comes back
    std::uint64_t ticket = 0;
  };

  // What replay checks before delivering; shared with preview_replay so a
  // preview cannot disagree with the replay that follows it.
  struct ReplayPlan;
  ReplayPlan plan_replay(std::uint64_t id, const std::optional<std::string>& alternate);
  // mutex_ held: remove's answer for one id as the ring holds it now
  // (kRemoved: it can be removed).
  RemoveOutcome remove_check_locked(std::uint64_t id);

  bool keeps_entries() const noexcept;
  bool persistent() const noexcept;
  std::int64_t now() const;
  enum class Outcome { kCaptured, kReplayed, kReplayFailed };
  void count(Outcome outcome) const noexcept;
  void damage(const std::string& what) const noexcept;

  // All below: mutex_ held.
  // record: the encoded payload for the journal (persistent store), or null.
  // Returns true when the letter came back as an entry this queue replayed.
  // defer: queue the journal record (pending_) instead of appending `record`.
  bool capture_locked(const DeadLetter& letter, detail::DeadLetterRecord* record, bool defer,
                      std::int64_t now_ms);
  // The captured record of an entry as it is held now (payload already encoded).
  static void describe_entry(const DeadLetterEntry& entry, detail::DeadLetterRecord& record);
  void expire_locked(std::int64_t now_ms);
  void enforce_cap_locked();
  void remember_replayed_locked(std::uint64_t id, std::uint32_t replay_count);
  std::uint64_t append_locked(const std::string& record) noexcept;
  void maybe_compact_locked() noexcept;
  DeadLetterEntry view(const DeadLetterEntry& entry) const;
  // The local path a filter names; nullopt for a path of another system.
  std::optional<std::string> normalise_filter_path(const std::string& path) const;

  void notify_changed() const noexcept;
  void clear_locked();

  // Encodes every queued record (called first by each journal operation,
  // without mutex_ held).
  void drain_pending();

  void restore();
  // mutex_ held: a journal change was made; arms the bound's timer once per
  // window (what is pending then is synced together).
  void arm_sync_locked() noexcept;
  // mailroom_journal_backlog{stream} for a journal that queues (a database).
  void register_backlog_gauge();
  void encode_payload(const Message& message, detail::DeadLetterRecord& record) const;

  const std::uint64_t list_epoch_;
  const DeadLetterQueueSettings settings_;
  Dependencies deps_;
  Counter* counters_[3] = {nullptr, nullptr, nullptr};  // by Outcome, resolved once

  mutable std::mutex mutex_;
  std::unique_ptr<detail::EntryRing> ring_;                            // oldest first
  std::unordered_map<std::uint64_t, Replayed> replayed_;               // replayed, may come back
  std::deque<std::pair<std::uint64_t, std::uint64_t>> replayed_fifo_;  // (id, ticket)
  std::uint64_t next_id_ = 1;
  std::uint64_t next_ticket_ = 1;
  std::uint64_t records_in_log_ = 0;  // journal records not yet compacted away
  std::uint64_t next_compaction_check_ = 0;
  std::uint64_t compacted_through_ = 0;
  std::uint64_t highest_sequence_ = 0;
  Stats stats_;
  std::unique_ptr<detail::ChangeLog> changes_;

  // Deferred records: ids of entries whose captured record is not written
  // yet, in capture order (under mutex_). One drainer at a time keeps that
  // order; a codec that reads the queue while its record is encoded (same
  // thread) does not start a second drain.
  std::atomic<bool> defer_records_{false};  // on from defer_journal_records to release_journal
  std::atomic<bool> ever_deferred_{false};  // pending_ may hold records: drains look
  std::function<void()> pending_wake_;
  std::deque<std::uint64_t> pending_;
  std::recursive_mutex drain_mutex_;
  bool draining_ = false;  // under drain_mutex_

  std::int64_t sync_within_ms_ = 0;
  bool sync_armed_ = false;  // under mutex_: a sync is due, later changes ride along
  std::unique_ptr<detail::JournalSyncer> syncer_;  // native, without a sync_timer

  mutable std::mutex listeners_mutex_;
  std::vector<std::pair<std::uint64_t, std::shared_ptr<ChangeListener>>> listeners_;
  std::atomic<bool> has_listeners_{false};
  std::uint64_t next_listener_id_ = 1;
};

}  // namespace mailroom
