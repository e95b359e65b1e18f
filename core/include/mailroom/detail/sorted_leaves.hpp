// SortedLeaves: an ordered multiset of unique keys with a value each, for the
// priority store's many-distinct-priorities case (random doubles). A red-black
// tree of a million nodes misses cache at every level of every operation; here
// keys sit in sorted leaves of at most kLeafItems small items (key + slot
// number), found through a map of leaves a fiftieth the size, and the values
// stay put in a slot array whose freed slots are reused first (still warm).
// Taking the front is O(1); insert is O(log(n / kLeafItems)) plus a shift of
// half a leaf. Not thread-safe.
//
// Key: totally ordered by operator<, unique. Value: movable.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace mailroom::detail {

template <class Key, class Value>
class SortedLeaves {
 public:
  static constexpr std::size_t kLeafItems = 64;

  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }

  // `key` must not be stored already.
  void insert(const Key& key, Value value) {
    const std::uint32_t slot = put(std::move(value));
    ++size_;
    if (leaves_.empty()) {
      auto leaf = make_leaf();
      leaf->items.push_back(Item{key, slot});
      leaves_.emplace(key, std::move(leaf));
      return;
    }
    auto it = leaves_.upper_bound(key);
    if (it == leaves_.begin()) {
      // Below every key: the first leaf takes it and its map key drops to it.
      auto node = leaves_.extract(it);
      node.key() = key;
      it = leaves_.insert(std::move(node)).position;
    } else {
      --it;
    }
    Leaf& leaf = *it->second;
    leaf.compact_if_half_consumed();
    auto at = std::upper_bound(leaf.items.begin() + static_cast<std::ptrdiff_t>(leaf.head),
                               leaf.items.end(), key,
                               [](const Key& k, const Item& item) { return k < item.key; });
    leaf.items.insert(at, Item{key, slot});
    if (leaf.live() > kLeafItems) split(it);
  }

  // The smallest key; only when not empty.
  const Key& front_key() const { return leaves_.begin()->second->front().key; }

  // Removes and returns the smallest key's value.
  std::optional<std::pair<Key, Value>> pop_front() {
    if (empty()) return std::nullopt;
    auto first = leaves_.begin();
    Leaf& leaf = *first->second;
    const Item item = leaf.items[leaf.head++];
    if (leaf.live() == 0) retire(first);
    return std::make_pair(item.key, take(item.slot));
  }

  // From the largest key down: the first entry `wanted(value)` accepts, removed.
  template <class Predicate>
  std::optional<std::pair<Key, Value>> take_last_if(Predicate wanted) {
    for (auto leaf = leaves_.rbegin(); leaf != leaves_.rend(); ++leaf) {
      auto& items = leaf->second->items;
      for (std::size_t i = items.size(); i-- > leaf->second->head;) {
        if (!wanted(slots_[items[i].slot])) continue;
        const Item item = items[i];
        items.erase(items.begin() + static_cast<std::ptrdiff_t>(i));
        if (leaf->second->live() == 0) retire(std::next(leaf).base());
        return std::make_pair(item.key, take(item.slot));
      }
    }
    return std::nullopt;
  }

  // Everything in key order, handed to `out(key, value)`; the set is empty after.
  template <class Out>
  void drain(Out out) {
    for (auto& [first, leaf] : leaves_) {
      for (std::size_t i = leaf->head; i < leaf->items.size(); ++i) {
        out(leaf->items[i].key, take(leaf->items[i].slot));
      }
    }
    leaves_.clear();
    slots_.clear();
    free_.clear();
    size_ = 0;
  }

 private:
  struct Item {
    Key key;
    std::uint32_t slot;
  };
  struct Leaf {
    std::vector<Item> items;  // sorted; [head, size) are live
    std::size_t head = 0;
    std::size_t live() const noexcept { return items.size() - head; }
    const Item& front() const { return items[head]; }
    void compact_if_half_consumed() {
      if (head == 0 || head < items.size() / 2) return;
      items.erase(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(head));
      head = 0;
    }
  };
  using Leaves = std::map<Key, std::unique_ptr<Leaf>>;

  std::unique_ptr<Leaf> make_leaf() {
    if (spare_.empty()) {
      auto leaf = std::make_unique<Leaf>();
      leaf->items.reserve(kLeafItems + 1);
      return leaf;
    }
    auto leaf = std::move(spare_.back());
    spare_.pop_back();
    return leaf;
  }
  void retire(typename Leaves::iterator it) {
    std::unique_ptr<Leaf> leaf = std::move(it->second);
    leaves_.erase(it);
    if (spare_.size() < kSpareLeaves) {
      leaf->items.clear();
      leaf->head = 0;
      spare_.push_back(std::move(leaf));
    }
  }
  // The upper half moves to a new leaf keyed by its first key.
  void split(typename Leaves::iterator it) {
    Leaf& full = *it->second;
    full.compact_if_half_consumed();
    const auto middle =
        full.items.begin() + static_cast<std::ptrdiff_t>(full.head + full.live() / 2);
    auto upper = make_leaf();
    upper->items.assign(middle, full.items.end());
    full.items.erase(middle, full.items.end());
    const Key first = upper->items.front().key;
    leaves_.emplace_hint(std::next(it), first, std::move(upper));
  }
  std::uint32_t put(Value value) {
    if (!free_.empty()) {
      const std::uint32_t slot = free_.back();
      free_.pop_back();
      slots_[slot] = std::move(value);
      return slot;
    }
    slots_.push_back(std::move(value));
    return static_cast<std::uint32_t>(slots_.size() - 1);
  }
  Value take(std::uint32_t slot) {
    Value out = std::move(slots_[slot]);
    slots_[slot] = Value{};
    --size_;
    free_.push_back(slot);
    return out;
  }

  static constexpr std::size_t kSpareLeaves = 16;
  Leaves leaves_;  // keyed by a lower bound of each leaf's keys, above the previous leaf's
  std::vector<Value> slots_;
  std::vector<std::uint32_t> free_;  // reused last-freed first
  std::vector<std::unique_ptr<Leaf>> spare_;
  std::size_t size_ = 0;
};

}  // namespace mailroom::detail
