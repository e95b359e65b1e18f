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

std::uint64_t* IdIndex::find(std::uint64_t id) noexcept {
  if (cells_.empty() || id == kEmpty) return nullptr;
  const std::size_t mask = cells_.size() - 1;
  for (std::size_t i = home(id);; i = (i + 1) & mask) {
    Cell& c = cells_[i];
    if (c.id == id) return &c.key;
    if (c.id == kEmpty) return nullptr;
  }
}

void IdIndex::set(std::uint64_t id, std::uint64_t key) {
  if (id == kEmpty) throw std::out_of_range("dead-letter id 2^64-1 is reserved");
  if (std::uint64_t* found = find(id)) {
    *found = key;
    return;
  }
  if (4 * (size_ + 1) > 3 * cells_.size()) grow();
  const std::size_t mask = cells_.size() - 1;
  std::size_t i = home(id);
  while (cells_[i].id != kEmpty) i = (i + 1) & mask;
  cells_[i] = Cell{id, key};
  ++size_;
}

void IdIndex::erase(std::uint64_t id) noexcept {
  if (cells_.empty() || id == kEmpty) return;
  const std::size_t mask = cells_.size() - 1;
  std::size_t hole = home(id);
  while (cells_[hole].id != id) {
    if (cells_[hole].id == kEmpty) return;
    hole = (hole + 1) & mask;
  }
  // Backward shift: move each later cell of the run into the hole unless its
  // home lies cyclically after the hole (then it is already reachable).
  for (std::size_t i = (hole + 1) & mask; cells_[i].id != kEmpty; i = (i + 1) & mask) {
    const std::size_t h = home(cells_[i].id);
    const bool reachable = hole <= i ? (hole < h && h <= i) : (hole < h || h <= i);
    if (reachable) continue;
    cells_[hole] = cells_[i];
    hole = i;
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
  const std::size_t mask = cells - 1;
  for (const Cell& c : bigger) {
    if (c.id == kEmpty) continue;
    std::size_t i = home(c.id);
    while (cells_[i].id != kEmpty) i = (i + 1) & mask;
    cells_[i] = c;
  }
}

}  // namespace mailroom::detail
