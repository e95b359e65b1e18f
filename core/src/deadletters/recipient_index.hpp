// RecipientIndex: the dead-letter ring's entries by exact recipient path, so
// that list({recipient}) visits only the paths in the wanted subtree instead
// of scanning the whole ring. Each path holds the ring order keys of its
// entries, oldest first; a path leaves the index with its last key. The
// subtree of "/user/a" is the path itself plus the map range
// ["/user/a/", "/user/a0") — '0' follows '/' — so siblings such as
// "/user/a-archive" are never visited. A hash of the same paths makes the
// lookup on every capture one hash instead of a walk of string comparisons.
// Not thread-safe: the ring calls it under the queue's mutex.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mailroom::detail {

class RecipientIndex {
  struct Keys {
    std::vector<std::uint64_t> keys;  // ascending; [head, size) are indexed
    std::size_t head = 0;             // removals at the front only advance it
  };
  using Map = std::map<std::string, Keys, std::less<>>;

 public:
  // Names a path's keys; valid until that path's last key is removed.
  using Handle = Map::iterator;

  // key must be greater than every key already indexed under path.
  Handle add(std::string_view path, std::uint64_t key);
  void remove(Handle handle, std::uint64_t key);
  void clear() noexcept {
    by_path_.clear();
    paths_.clear();
  }
  std::size_t paths() const noexcept { return paths_.size(); }

  // Replaces every key k by renumbered(k); renumbered must keep the order.
  template <class F>
  void renumber(F&& renumbered) {
    for (auto& [path, keys] : paths_) {
      keys.keys.erase(keys.keys.begin(), keys.keys.begin() + keys.head);
      keys.head = 0;
      for (std::uint64_t& key : keys.keys) key = renumbered(key);
    }
  }

  // The keys of every path in wanted's subtree (ActorPath::in_subtree), merged
  // newest (greatest) first; valid while the index is not changed. nullopt
  // when the subtree holds more than max_paths paths: merging that many is
  // slower than a scan. Keys >= below are left out (a read continuing
  // after a position: each path's keys are found by binary search).
  class NewestFirst {
   public:
    bool next(std::uint64_t& key);

   private:
    friend class RecipientIndex;
    struct Cursor {
      const std::uint64_t* first;
      const std::uint64_t* last;  // last[-1] is this path's next key
    };
    static bool older(const Cursor& a, const Cursor& b) noexcept { return a.last[-1] < b.last[-1]; }
    std::vector<Cursor> heap_;  // a max-heap on the next key
  };
  std::optional<NewestFirst> newest_first(
      std::string_view wanted, std::size_t max_paths,
      std::uint64_t below = std::numeric_limits<std::uint64_t>::max()) const;

 private:
  Map paths_;
  std::unordered_map<std::string_view, Handle> by_path_;  // the same paths (keys in paths_)
};

}  // namespace mailroom::detail
