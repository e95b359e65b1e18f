#include "mailroom/detail/priority_store.hpp"

#include <stdexcept>

namespace mailroom::detail {

namespace {
constexpr std::size_t kSpareRings = 8;
}

void PriorityStore::Ring::push_back(Entry entry) {
  if (count_ == buffer_.size()) {
    // Grow to twice the size, unrolling the ring so head_ is 0 again.
    std::vector<Entry> bigger(buffer_.empty() ? 8 : buffer_.size() * 2);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = std::move(at(i));
    buffer_ = std::move(bigger);
    head_ = 0;
  }
  buffer_[(head_ + count_) & (buffer_.size() - 1)] = std::move(entry);
  ++count_;
}

PriorityStore::Entry PriorityStore::Ring::pop_front() {
  Entry out = std::move(buffer_[head_]);
  head_ = (head_ + 1) & (buffer_.size() - 1);
  --count_;
  return out;
}

PriorityStore::Entry PriorityStore::Ring::erase(std::size_t i) {
  Entry out = std::move(at(i));
  for (std::size_t j = i + 1; j < count_; ++j) at(j - 1) = std::move(at(j));
  at(count_ - 1).slot = Packed{};
  --count_;
  return out;
}

void PriorityStore::insert(const Key& key, Slot slot) {
  Packed packed = Packed::of(std::move(slot));
  ++size_;
  if (uses_tree()) {
    insert_many(key, std::move(packed));
    return;
  }
  const BucketKey bucket_key{key.epoch, key.priority};
  auto bucket = buckets_.find(bucket_key);
  if (bucket == buckets_.end()) {
    if (buckets_.size() >= kMaxBuckets) {
      move_buckets_to_tree();
      insert_many(key, std::move(packed));
      return;
    }
    Ring ring;
    if (!spare_.empty()) {
      ring = std::move(spare_.back());
      spare_.pop_back();
    }
    bucket = buckets_.emplace(bucket_key, std::move(ring)).first;
  }
  // Sequences only grow, so the back of a ring is always the right place.
  bucket->second.push_back(Entry{key.sequence, std::move(packed)});
}

void PriorityStore::insert_many(const Key& key, Packed packed) {
  if (sheds_tail_) {
    tree_.insert(key, std::move(packed));
  } else {
    ladders_[key.epoch].insert(ordered_bits(key.priority), key.sequence, std::move(packed));
  }
}

void PriorityStore::move_buckets_to_tree() {
  // Ring by ring: equal priorities keep their sequence order, as the ladder needs.
  for (auto& [bucket_key, ring] : buckets_) {
    while (!ring.empty()) {
      Entry entry = ring.pop_front();
      insert_many(Key{bucket_key.epoch, bucket_key.priority, entry.sequence},
                  std::move(entry.slot));
    }
  }
  buckets_.clear();
}

void PriorityStore::retire(std::map<BucketKey, Ring>::iterator bucket) {
  if (spare_.size() < kSpareRings) {
    bucket->second.clear();
    spare_.push_back(std::move(bucket->second));
  }
  buckets_.erase(bucket);
}

std::uint64_t PriorityStore::front_epoch() const {
  if (!tree_.empty()) return tree_.front_key().epoch;
  if (!ladders_.empty()) return ladders_.begin()->first;
  if (buckets_.empty()) throw std::logic_error("PriorityStore::front_epoch on an empty store");
  return buckets_.begin()->first.epoch;
}

std::optional<Envelope> PriorityStore::pop_front() {
  if (size_ == 0) return std::nullopt;
  --size_;
  if (!tree_.empty()) return tree_.pop_front()->second.take();
  if (!ladders_.empty()) {
    auto first = ladders_.begin();
    Envelope out = first->second.pop_front()->value.take();
    if (first->second.empty()) ladders_.erase(first);
    return out;
  }
  auto bucket = buckets_.begin();
  Envelope out = bucket->second.pop_front().slot.take();
  if (bucket->second.empty()) retire(bucket);
  return out;
}

std::optional<std::pair<PriorityStore::Key, Envelope>> PriorityStore::take_last_droppable() {
  // From the tail; only signals and stop/kill are skipped, and those are few.
  if (!tree_.empty()) {
    auto taken = tree_.take_last_if([](const Packed& p) { return p.droppable; });
    if (!taken) return std::nullopt;
    --size_;
    return std::make_pair(taken->first, taken->second.take());
  }
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
  for (auto bucket = buckets_.rbegin(); bucket != buckets_.rend(); ++bucket) {
    Ring& ring = bucket->second;
    for (std::size_t i = ring.size(); i-- > 0;) {
      if (!ring.at(i).slot.droppable) continue;
      Entry entry = ring.erase(i);
      --size_;
      const Key key{bucket->first.epoch, bucket->first.priority, entry.sequence};
      if (ring.empty()) retire(std::next(bucket).base());
      return std::make_pair(key, entry.slot.take());
    }
  }
  return std::nullopt;
}

std::vector<Envelope> PriorityStore::drain() {
  std::vector<Envelope> out;
  out.reserve(size_);
  tree_.drain([&out](const Key&, Packed&& slot) { out.push_back(slot.take()); });
  for (auto& [epoch, ladder] : ladders_) {
    while (auto entry = ladder.pop_front()) out.push_back(entry->value.take());
  }
  ladders_.clear();
  while (!buckets_.empty()) {
    auto bucket = buckets_.begin();
    while (!bucket->second.empty()) out.push_back(bucket->second.pop_front().slot.take());
    retire(bucket);
  }
  size_ = 0;
  return out;
}

}  // namespace mailroom::detail
