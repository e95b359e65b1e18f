// PriorityStore: a PriorityMailbox's queued messages in delivery order, by
// (epoch, priority, sequence). Not thread-safe: the mailbox's lock guards it.
//
// Most users have a few distinct priorities (the seed's 0/5/10), so the store
// keeps a FIFO per distinct (epoch, priority), in a small sorted vector:
// enqueue and dequeue are O(1) in the backlog and O(log k) in the number k of
// distinct priorities. Each FIFO is a ring of fixed segments from a pool the
// buckets share (segment_ring.hpp): nothing is copied as a backlog grows, and
// the segment a pop empties is the next one a push fills, still in cache. When
// more than kMaxBuckets distinct priorities are queued at once (random
// doubles) it moves everything into a ladder queue per epoch (ladder_queue.hpp:
// amortised O(1) at both ends, sequential memory traffic), and back to buckets
// once those are empty. Every order is the same, so the switch is invisible.
// Envelopes are kept packed (packed_envelope.hpp): a small message's entry is
// 64 bytes with its value inline, nothing to chase on another line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "mailroom/detail/ladder_queue.hpp"
#include "mailroom/detail/packed_envelope.hpp"
#include "mailroom/detail/segment_ring.hpp"
#include "mailroom/envelope.hpp"

namespace mailroom::detail {

class PriorityStore {
 public:
  static constexpr std::size_t kMaxBuckets = 64;

  struct Key {
    std::uint64_t epoch;     // even: 2 x the PoisonPills/Kills queued before; odd: one of them
    double priority;         // never NaN
    std::uint64_t sequence;  // arrival order, unique: also the entry's identity
    bool operator<(const Key& other) const noexcept {
      if (epoch != other.epoch) return epoch < other.epoch;
      return priority < other.priority || (priority == other.priority && sequence < other.sequence);
    }
  };
  struct Slot {
    Envelope envelope;
    bool droppable = true;  // false for signals and stop/kill: never shed
  };

  // `key.sequence` must exceed every sequence stored (the mailbox's counter).
  void insert(const Key& key, Slot slot);
  std::size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  // The epoch of the first message; only when not empty.
  std::uint64_t front_epoch() const;
  std::optional<Envelope> pop_front();
  // The last droppable message in delivery order, removed.
  std::optional<std::pair<Key, Envelope>> take_last_droppable();
  std::vector<Envelope> drain();  // everything, in delivery order
  // Past kMaxBuckets: the ladders hold everything.
  bool uses_tree() const noexcept { return !ladders_.empty(); }

 private:
  // A Slot as stored.
  struct Packed {
    EnvelopePacking::Stored envelope;
    bool droppable = true;
    static Packed of(Slot&& slot) {
      return Packed{EnvelopePacking::pack(std::move(slot.envelope)), slot.droppable};
    }
    Envelope take() noexcept { return EnvelopePacking::unpack(std::move(envelope)); }
  };
  struct Entry {
    std::uint64_t sequence = 0;
    Packed slot;
  };
  struct BucketKey {
    std::uint64_t epoch;
    double priority;
    bool operator<(const BucketKey& other) const noexcept {
      return epoch < other.epoch || (epoch == other.epoch && priority < other.priority);
    }
  };

  using Ring = SegmentRing<Entry>;
  struct Bucket {
    BucketKey key;
    Ring ring;
  };

  void move_buckets_to_tree();
  void insert_many(const Key& key, Packed packed);

  // Descending by key: the bucket that delivers next is the last, so retiring
  // it (or opening one for a new smallest priority) moves nothing.
  std::vector<Bucket> buckets_;
  SegmentPool<Entry> segments_;                           // shared by the rings
  std::map<std::uint64_t, LadderQueue<Packed>> ladders_;  // by epoch, while too many buckets
  std::size_t size_ = 0;
};

}  // namespace mailroom::detail
