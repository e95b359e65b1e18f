#include "change_log.hpp"

namespace mailroom::detail {

void ChangeLog::note(Kind kind, std::uint64_t id, DeadLetterRemoval reason) {
  changes_.push_back(Change{++revision_, id, kind, reason});
  while (changes_.size() > capacity_) {
    floor_ = changes_.front().revision;
    changes_.pop_front();
  }
}

void ChangeLog::note_removed(const std::vector<std::uint64_t>& ids, DeadLetterRemoval reason) {
  for (std::uint64_t id : ids) note(Kind::kRemoved, id, reason);
}

void ChangeLog::reset() {
  changes_.clear();
  floor_ = ++revision_;
}

bool ChangeLog::since(std::uint64_t since, std::vector<Change>& out) const {
  if (since < floor_) return false;
  // Revisions are consecutive, so the first wanted change is found by offset.
  if (changes_.empty() || since >= revision_) return true;
  const std::uint64_t first = changes_.front().revision;
  std::size_t start = since < first ? 0 : static_cast<std::size_t>(since - first + 1);
  out.insert(out.end(), changes_.begin() + static_cast<std::ptrdiff_t>(start), changes_.end());
  return true;
}

}  // namespace mailroom::detail
