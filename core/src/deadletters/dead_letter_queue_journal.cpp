// DeadLetterQueue, the journal side of the persistent store: appends,
// prefix compaction, payload encoding and the restore at construction. The
// record format is described in dead_letter_record.hpp.
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <vector>

#include "dead_letter_record.hpp"
#include "entry_ring.hpp"
#include "error_text.hpp"
#include "journal_syncer.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/payload_codec_registry.hpp"

namespace mailroom {

using detail::DeadLetterRecord;
using detail::StoredEntry;

void DeadLetterQueue::release_journal() {
  if (!persistent()) return;
  drain_pending();
  // The system is down and its host stops pumping: a capture from now on is
  // written as it was before deferral (inside capture), exactly as without it.
  defer_records_.store(false, std::memory_order_release);
  drain_pending();  // what was queued meanwhile
  try {
    deps_.journal->release(settings_.persistence_id);
  } catch (...) {
    damage("dead-letter journal '" + settings_.persistence_id +
           "': release failed: " + detail::error_text(std::current_exception()));
  }
}

void DeadLetterQueue::flush() {
  if (!persistent()) return;
  drain_pending();
  try {
    deps_.journal->flush();
  } catch (...) {
    damage("dead-letter journal '" + settings_.persistence_id +
           "': flush failed: " + detail::error_text(std::current_exception()));
  }
}

void DeadLetterQueue::sync_due() noexcept {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sync_armed_ = false;  // changes from here on arm the next window
  }
  flush();  // reports its own failures (damage)
}

void DeadLetterQueue::arm_sync_locked() noexcept {
  if (sync_armed_) return;
  try {
    if (deps_.sync_timer) {
      deps_.sync_timer(sync_within_ms_);
    } else if (syncer_) {
      syncer_->arm(sync_within_ms_);
    } else {
      return;  // no timer here: the next flush syncs
    }
    sync_armed_ = true;
  } catch (...) {
    damage("dead-letter journal '" + settings_.persistence_id +
           "': cannot arm the sync timer: " + detail::error_text(std::current_exception()));
  }
}

void DeadLetterQueue::when_durable(std::function<void(std::string error)> done) {
  if (!persistent()) {
    done({});
    return;
  }
  drain_pending();
  std::string failure;
  try {
    deps_.journal->flush_then(done);
    return;
  } catch (...) {
    failure = "dead-letter journal '" + settings_.persistence_id +
              "': flush failed: " + detail::error_text(std::current_exception());
  }
  damage(failure);
  done(failure);
}

// ------------------------------------------------------ deferred records --

void DeadLetterQueue::defer_journal_records(std::function<void()> wake) {
  if (!persistent()) return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending_wake_ = std::move(wake);
  }
  ever_deferred_.store(true, std::memory_order_release);
  defer_records_.store(true, std::memory_order_release);
}

std::size_t DeadLetterQueue::pending_records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

void DeadLetterQueue::drain_pending() {
  if (!ever_deferred_.load(std::memory_order_acquire)) return;
  std::lock_guard<std::recursive_mutex> drain(drain_mutex_);
  if (draining_) return;  // a codec of the running drain reads the queue: that drain goes on
  encode_pending(std::numeric_limits<std::size_t>::max());
}

std::size_t DeadLetterQueue::encode_pending(std::size_t max_records) {
  std::lock_guard<std::recursive_mutex> drain(drain_mutex_);
  if (draining_) return pending_records();
  draining_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{draining_};
  for (std::size_t n = 0; n < max_records; ++n) {
    std::uint64_t id = 0;
    Message message;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // Entries that left before their turn (evicted, aged out) need no record.
      while (id == 0 && !pending_.empty()) {
        const std::uint64_t next = pending_.front();
        pending_.pop_front();
        detail::EntryRing::State state;
        const StoredEntry* stored = ring_->find(next, &state);
        if (stored == nullptr || state != detail::EntryRing::State::kLive) continue;
        const auto* captured = std::get_if<DeadLetterEntry::Captured>(&stored->entry.payload);
        if (captured == nullptr) continue;
        id = next;
        message = captured->message;
      }
      if (id == 0) break;
    }
    // Outside the lock: the codec is user (or JS) code.
    DeadLetterRecord record;
    try {
      encode_payload(message, record);
    } catch (...) {
      record.tag.reset();
      record.value_text.clear();
      record.degraded_reason =
          "the encoder failed: " + detail::error_text(std::current_exception());
    }
    std::lock_guard<std::mutex> lock(mutex_);
    detail::EntryRing::State state;
    StoredEntry* stored = ring_->find(id, &state);
    if (stored == nullptr || state != detail::EntryRing::State::kLive) continue;
    describe_entry(stored->entry, record);
    stored->sequence = append_locked(record.to_json());
    maybe_compact_locked();
  }
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

void DeadLetterQueue::describe_entry(const DeadLetterEntry& entry, DeadLetterRecord& record) {
  record.kind = DeadLetterRecord::Kind::kCaptured;
  record.id = entry.id;
  record.timestamp_ms = entry.timestamp_ms;
  record.recipient_path = entry.recipient_path;
  record.sender_path = entry.sender_path;
  record.replay_count = entry.replay_count;
  record.cause = entry.cause;
  record.drop_reason = entry.drop_reason;
}

std::uint64_t DeadLetterQueue::append_locked(const std::string& record) noexcept {
  try {
    const std::uint64_t sequence = deps_.journal->append(settings_.persistence_id, record);
    highest_sequence_ = std::max(highest_sequence_, sequence);
    ++records_in_log_;
    arm_sync_locked();
    return sequence;
  } catch (...) {
    damage("dead-letter journal '" + settings_.persistence_id +
           "': append failed: " + detail::error_text(std::current_exception()));
    return 0;
  }
}

void DeadLetterQueue::maybe_compact_locked() noexcept {
  if (records_in_log_ < next_compaction_check_) return;
  // Everything below the oldest record a live entry still needs is dead:
  // evicted, aged out, superseded, tombstoned or cleared.
  const std::uint64_t oldest_live = std::min(highest_sequence_ + 1, ring_->min_sequence());
  const std::uint64_t up_to = oldest_live - 1;
  if (up_to > compacted_through_) {
    try {
      deps_.journal->delete_up_to(settings_.persistence_id, up_to);
      arm_sync_locked();  // a rewrite is durable at once; the bound holds anyway
      records_in_log_ = highest_sequence_ - up_to;
      compacted_through_ = up_to;
    } catch (...) {
      damage("dead-letter journal '" + settings_.persistence_id +
             "': compaction failed: " + detail::error_text(std::current_exception()));
    }
  }
  next_compaction_check_ =
      std::max<std::uint64_t>(2 * ring_->live(), records_in_log_ + ring_->live()) +
      kCompactionSlack;
}

void DeadLetterQueue::encode_payload(const Message& message, DeadLetterRecord& record) const {
  record.degraded_class = message.type_name();
  if (deps_.codecs == nullptr) {
    record.degraded_reason = "no payload codec registry";
    return;
  }
  // As text: the record carries a text codec's JSON as it is (no parse, no re-dump).
  PayloadCodecRegistry::EncodeTextResult encoded = deps_.codecs->encode_text(message);
  if (encoded.ok()) {
    record.tag = std::move(encoded.tagged->tag);
    record.value_text = std::move(encoded.tagged->text);
  } else {
    record.degraded_class = std::move(encoded.degraded.class_name);
    record.degraded_reason = std::move(encoded.degraded.reason);
  }
}

void DeadLetterQueue::restore() {
  JournalReadResult read;
  try {
    read = deps_.journal->read(settings_.persistence_id);
  } catch (const JournalLockedError&) {
    throw;  // a second writer is refused, never started empty
  } catch (...) {
    damage("dead-letter journal '" + settings_.persistence_id +
           "': read failed, starting empty: " + detail::error_text(std::current_exception()));
    return;
  }
  if (read.damaged) {
    std::string kept = read.kept_aside.empty() ? "" : ", damaged bytes kept in " + read.kept_aside;
    damage("dead-letter journal '" + settings_.persistence_id +
           "' damaged: " + std::to_string(read.skipped_bytes) + " bytes and " +
           std::to_string(read.skipped_records) + " records skipped, " +
           std::to_string(read.records.size()) + " intact records restored (" + read.damage + ")" +
           kept);
  }

  // Fold: the latest captured record per id wins; removed/cleared delete.
  struct Folded {
    std::uint64_t sequence;
    DeadLetterRecord record;
  };
  std::unordered_map<std::uint64_t, Folded> live;
  std::uint64_t max_id = 0;
  for (const JournalRecord& journal_record : read.records) {
    highest_sequence_ = std::max(highest_sequence_, journal_record.sequence);
    try {
      DeadLetterRecord record = DeadLetterRecord::from_json(journal_record.payload);
      max_id = std::max(max_id, record.id);
      switch (record.kind) {
        case DeadLetterRecord::Kind::kCaptured:
          live.insert_or_assign(record.id, Folded{journal_record.sequence, std::move(record)});
          break;
        case DeadLetterRecord::Kind::kRemoved:
          live.erase(record.id);
          break;
        case DeadLetterRecord::Kind::kCleared:
          live.clear();
          break;
        case DeadLetterRecord::Kind::kReleased:
          // The captured record keeps its place; only the count starts afresh.
          if (auto it = live.find(record.id); it != live.end()) it->second.record.replay_count = 0;
          break;
        case DeadLetterRecord::Kind::kUnknown:
          break;  // written by a newer version: skipped, not fatal
      }
    } catch (...) {
      damage("dead-letter journal '" + settings_.persistence_id + "': record " +
             std::to_string(journal_record.sequence) +
             " unreadable, skipped: " + detail::error_text(std::current_exception()));
    }
  }

  std::vector<Folded*> ordered;
  ordered.reserve(live.size());
  for (auto& [id, folded] : live) ordered.push_back(&folded);
  std::sort(ordered.begin(), ordered.end(),
            [](const Folded* a, const Folded* b) { return a->sequence < b->sequence; });

  std::lock_guard<std::mutex> lock(mutex_);
  for (Folded* folded : ordered) {
    DeadLetterRecord& record = folded->record;
    StoredEntry stored;
    stored.sequence = folded->sequence;
    DeadLetterEntry& entry = stored.entry;
    entry.id = record.id;
    entry.timestamp_ms = record.timestamp_ms;
    entry.recipient_path = std::move(record.recipient_path);
    entry.sender_path = std::move(record.sender_path);
    entry.replay_count = record.replay_count;
    entry.cause = record.cause;
    entry.drop_reason = record.drop_reason;
    if (!record.tag) {
      entry.payload = DeadLetterEntry::Degraded{record.degraded_class, record.degraded_reason};
    } else if (deps_.codecs == nullptr) {
      entry.payload = DeadLetterEntry::Degraded{record.degraded_class, "no payload codec registry"};
    } else {
      auto decoded = deps_.codecs->decode(*record.tag, record.value);
      if (decoded.ok()) {
        entry.payload = DeadLetterEntry::Captured{std::move(*decoded.message)};
      } else {
        entry.payload = DeadLetterEntry::Degraded{
            record.degraded_class.empty() ? *record.tag : record.degraded_class, decoded.reason};
      }
    }
    ring_->push(std::move(stored));
    ++stats_.restored;
  }
  next_id_ = max_id + 1;
  records_in_log_ = read.records.size();
  // Restored entries come first; then the usual bounds apply.
  expire_locked(now());
  enforce_cap_locked();
  maybe_compact_locked();
}

}  // namespace mailroom
