#include "id_index.hpp"

#include <stdexcept>
#include <utility>

namespace mailroom::detail {
namespace {
constexpr std::size_t kInitialCells = 64;
}  // namespace

std::size_t IdIndex::home(std::uint64_t id) const noexcept {
  // The id's low bits: ids are handed out in sequence and the ring holds a
  // sliding window of them, so live ids land in distinct, neighbouring cells
  // (a scattering hash would make every capture a cache miss in a large table).
  return static_cast<std::size_t>(id ^ (id >> 32)) & (cells_.size() - 1);
}

std::size_t IdIndex::distance(std::size_t cell) const noexcept {
  return (cell - home(cells_[cell].id)) & (cells_.size() - 1);
}

std::uint64_t* IdIndex::find(std::uint64_t id) noexcept {
  if (cells_.empty() || id == kEmpty) return nullptr;
  const std::size_t mask = cells_.size() - 1;
  // Robin Hood order: a cell closer to its home than we are to ours means
  // the id would have taken that cell, so it is not in the table.
  for (std::size_t i = home(id), d = 0;; i = (i + 1) & mask, ++d) {
    Cell& c = cells_[i];
    if (c.id == id) return &c.key;
    if (c.id == kEmpty || distance(i) < d) return nullptr;
  }
}

void IdIndex::place(Cell cell) noexcept {
  const std::size_t mask = cells_.size() - 1;
  for (std::size_t i = home(cell.id), d = 0;; i = (i + 1) & mask, ++d) {
    if (cells_[i].id == kEmpty) {
      cells_[i] = cell;
      return;
    }
    // The richer cell (nearer its home) gives way, so probe runs stay sorted
    // by distance and an erase can stop at the first cell that is at home.
    if (const std::size_t theirs = distance(i); theirs < d) {
      std::swap(cells_[i], cell);
      d = theirs;
    }
  }
}

void IdIndex::set(std::uint64_t id, std::uint64_t key) {
  if (id == kEmpty) throw std::out_of_range("dead-letter id 2^64-1 is reserved");
  if (std::uint64_t* found = find(id)) {
    *found = key;
    return;
  }
  if (4 * (size_ + 1) > 3 * cells_.size()) grow();
  place(Cell{id, key});
  ++size_;
}

void IdIndex::erase(std::uint64_t id) noexcept {
  if (cells_.empty() || id == kEmpty) return;
  const std::size_t mask = cells_.size() - 1;
  std::size_t hole = home(id);
  for (std::size_t d = 0; cells_[hole].id != id; hole = (hole + 1) & mask, ++d) {
    if (cells_[hole].id == kEmpty || distance(hole) < d) return;
  }
  // Backward shift: the rest of the run moves one cell nearer home, up to the
  // first empty cell or cell already at home. The ring erases its oldest id
  // while the window of live ids sits at home, so this is O(1) there (plain
  // linear probing had to walk the whole window).
  for (std::size_t next = (hole + 1) & mask; cells_[next].id != kEmpty && distance(next) > 0;
       next = (next + 1) & mask) {
    cells_[hole] = cells_[next];
    hole = next;
  }
  cells_[hole] = Cell{};
  --size_;
}

void IdIndex::clear() noexcept {
  std::vector<Cell>().swap(cells_);
  size_ = 0;
}

void IdIndex::grow() {
  const std::size_t cells = cells_.empty() ? kInitialCells : 2 * cells_.size();
  std::vector<Cell> bigger(cells);  // may throw: nothing changed yet
  std::swap(cells_, bigger);
  for (const Cell& c : bigger) {
    if (c.id != kEmpty) place(c);
  }
}

}  // namespace mailroom::detail
