#include "mailroom/detail/priority_store.hpp"

#include <algorithm>
#include <stdexcept>

namespace mailroom::detail {

void PriorityStore::insert(const Key& key, Slot slot) {
  Packed packed = Packed::of(std::move(slot));
  ++size_;
  if (uses_tree()) {
    insert_many(key, std::move(packed));
    return;
  }
  const BucketKey bucket_key{key.epoch, key.priority};
  // The first bucket not above the key (descending order).
  auto bucket = std::lower_bound(buckets_.begin(), buckets_.end(), bucket_key,
                                 [](const Bucket& b, const BucketKey& k) { return k < b.key; });
  if (bucket == buckets_.end() || bucket->key < bucket_key) {
    if (buckets_.size() >= kMaxBuckets) {
      move_buckets_to_tree();
      insert_many(key, std::move(packed));
      return;
    }
    bucket = buckets_.insert(bucket, Bucket{bucket_key, Ring()});
  }
  // Sequences only grow, so the back of a ring is always the right place.
  bucket->ring.push_back(segments_, Entry{key.sequence, std::move(packed)});
}

void PriorityStore::insert_many(const Key& key, Packed packed) {
  ladders_[key.epoch].insert(ordered_bits(key.priority), key.sequence, std::move(packed));
}

void PriorityStore::move_buckets_to_tree() {
  // Ring by ring: equal priorities keep their sequence order, as the ladder needs.
  for (Bucket& bucket : buckets_) {
    while (!bucket.ring.empty()) {
      Entry entry = bucket.ring.pop_front(segments_);
      insert_many(Key{bucket.key.epoch, bucket.key.priority, entry.sequence},
                  std::move(entry.slot));
    }
  }
  buckets_.clear();
}

std::uint64_t PriorityStore::front_epoch() const {
  if (!ladders_.empty()) return ladders_.begin()->first;
  if (buckets_.empty()) throw std::logic_error("PriorityStore::front_epoch on an empty store");
  return buckets_.back().key.epoch;
}

std::optional<Envelope> PriorityStore::pop_front() {
  if (size_ == 0) return std::nullopt;
  --size_;
  if (!ladders_.empty()) {
    auto first = ladders_.begin();
    Envelope out = first->second.pop_front()->value.take();
    if (first->second.empty()) ladders_.erase(first);
    return out;
  }
  Bucket& bucket = buckets_.back();
  Envelope out = bucket.ring.pop_front(segments_).slot.take();
  if (bucket.ring.empty()) buckets_.pop_back();
  return out;
}

std::optional<std::pair<PriorityStore::Key, Envelope>> PriorityStore::take_last_droppable() {
  // From the tail; only signals and stop/kill are skipped, and those are few.
  if (!ladders_.empty()) {
    for (auto ladder = ladders_.rbegin(); ladder != ladders_.rend(); ++ladder) {
      auto taken = ladder->second.take_last_if([](const Packed& p) { return p.droppable; });
      if (!taken) continue;
      --size_;
      const Key key{ladder->first, from_ordered_bits(taken->bits), taken->sequence};
      if (ladder->second.empty()) ladders_.erase(std::next(ladder).base());
      return std::make_pair(key, taken->value.take());
    }
    return std::nullopt;
  }
  // The first bucket delivers last.
  for (auto bucket = buckets_.begin(); bucket != buckets_.end(); ++bucket) {
    auto entry =
        bucket->ring.take_last_if(segments_, [](const Entry& e) { return e.slot.droppable; });
    if (!entry) continue;
    --size_;
    const Key key{bucket->key.epoch, bucket->key.priority, entry->sequence};
    if (bucket->ring.empty()) buckets_.erase(bucket);
    return std::make_pair(key, entry->slot.take());
  }
  return std::nullopt;
}

std::vector<Envelope> PriorityStore::drain() {
  std::vector<Envelope> out;
  out.reserve(size_);
  for (auto& [epoch, ladder] : ladders_) {
    while (auto entry = ladder.pop_front()) out.push_back(entry->value.take());
  }
  ladders_.clear();
  while (!buckets_.empty()) {
    Ring& ring = buckets_.back().ring;
    while (!ring.empty()) out.push_back(ring.pop_front(segments_).slot.take());
    buckets_.pop_back();
  }
  size_ = 0;
  return out;
}

}  // namespace mailroom::detail
