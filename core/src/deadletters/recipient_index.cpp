#include "recipient_index.hpp"

#include <algorithm>

#include "mailroom/actor_path.hpp"

namespace mailroom::detail {
namespace {
// A path's consumed front is squeezed out once it is at least this long and
// at least half the keys: amortised O(1) per removal.
constexpr std::size_t kCompactHead = 32;
}  // namespace

RecipientIndex::Handle RecipientIndex::add(std::string_view path, std::uint64_t key) {
  if (auto found = by_path_.find(path); found != by_path_.end()) {
    found->second->second.keys.push_back(key);
    return found->second;
  }
  auto it = paths_.emplace(path, Keys{}).first;
  try {
    it->second.keys.push_back(key);
    by_path_.emplace(it->first, it);
  } catch (...) {
    paths_.erase(it);
    throw;
  }
  return it;
}

void RecipientIndex::remove(Handle handle, std::uint64_t key) {
  Keys& k = handle->second;
  std::vector<std::uint64_t>& keys = k.keys;
  if (keys[k.head] == key) {
    ++k.head;  // the usual case: eviction and ageing take the oldest
  } else if (keys.back() == key) {
    keys.pop_back();
  } else {
    auto it = std::lower_bound(keys.begin() + k.head, keys.end(), key);
    if (it == keys.end() || *it != key) return;
    keys.erase(it);
  }
  if (k.head == keys.size()) {
    by_path_.erase(handle->first);
    paths_.erase(handle);
    return;
  }
  if (k.head >= kCompactHead && 2 * k.head >= keys.size()) {
    keys.erase(keys.begin(), keys.begin() + k.head);
    k.head = 0;
    if (keys.capacity() > 4 * keys.size() + 4 * kCompactHead) keys.shrink_to_fit();
  }
}

std::optional<RecipientIndex::NewestFirst> RecipientIndex::newest_first(std::string_view wanted,
                                                                        std::size_t max_paths,
                                                                        std::uint64_t below) const {
  NewestFirst out;
  auto take = [&out, max_paths, below](const Keys& k) {
    const std::uint64_t* first = k.keys.data() + k.head;
    const std::uint64_t* last = std::lower_bound(first, k.keys.data() + k.keys.size(), below);
    if (first != last) out.heap_.push_back({first, last});
    return out.heap_.size() <= max_paths;
  };
  if (wanted == "/") {
    for (const auto& [path, keys] : paths_) {
      if (ActorPath::in_subtree(path, wanted) && !take(keys)) return std::nullopt;
    }
  } else {
    if (auto it = paths_.find(wanted); it != paths_.end() && !take(it->second)) {
      return std::nullopt;
    }
    // Below wanted: exactly the keys in [wanted + "/", wanted + "0").
    std::string bound(wanted);
    bound += '/';
    auto it = paths_.lower_bound(bound);
    bound.back() = '0';
    for (auto end = paths_.lower_bound(bound); it != end; ++it) {
      if (!take(it->second)) return std::nullopt;
    }
  }
  std::make_heap(out.heap_.begin(), out.heap_.end(), &NewestFirst::older);
  return out;
}

bool RecipientIndex::NewestFirst::next(std::uint64_t& key) {
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), &older);
  Cursor& cursor = heap_.back();
  key = *--cursor.last;
  if (cursor.last == cursor.first) {
    heap_.pop_back();
  } else {
    std::push_heap(heap_.begin(), heap_.end(), &older);
  }
  return true;
}

}  // namespace mailroom::detail
