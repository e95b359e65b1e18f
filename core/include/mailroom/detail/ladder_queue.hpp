// LadderQueue: a priority queue of (bits, sequence, value) for the priority
// store's many-distinct-priorities case (random doubles), smallest key first,
// equal bits in sequence order. A ladder queue (Tang, Goh & Thng 2005): every
// ordered tree of a million entries misses cache at every level of every
// operation, while here the memory traffic is sequential.
//  - top: arrivals above everything sorted so far, appended unsorted;
//  - rungs: key ranges cut into buckets, each an unsorted vector appended to
//    (an arrival lands in the bucket its key falls in: a shift, no search);
//  - bottom: the next few dozen entries, sorted; dequeue takes its front.
// When the bottom runs dry, the lowest rung's next bucket is sorted into it, or,
// when that bucket holds too many, spread over a new finer rung first; when the
// rungs run dry, the top is spread over a new rung. An entry is moved a few
// times (top -> rung -> finer rung -> bottom), each time appended, so the
// amortised cost per entry is O(1) whatever the backlog. One dequeue after a
// burst of n arrivals pays O(n) to spread them.
//
// What moves is a 24-byte record (bits, sequence, slot); the value stays where
// it was put, in a slab of fixed chunks, until it is popped. A million 64-byte
// entries moved 3-4 times through DRAM were most of the cost at a 1 M backlog;
// records move a third of the bytes, spreading never touches (or destroys)
// values, and the slot a pop frees is the one the next insert fills, still in
// cache. The price, one read of a value that may be cold per pop, is hidden by
// prefetching the values of the next few records of the sorted bottom.
//
// Within a bucket, records with equal bits sit in sequence order (every record
// is appended with a sequence above all stored ones, and spreading keeps the
// order), so sorting by (bits, sequence) keeps FIFO ties.
//
// take_last_if (a bounded mailbox shedding its least important entry) works
// the same way from the other end: the top, the highest rung's last bucket,
// cut into finer rungs until a few dozen are left. Not thread-safe.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "mailroom/detail/huge_pages.hpp"

namespace mailroom::detail {

// An order-preserving map of a non-NaN double to 64 bits (-0.0 as +0.0, so
// the two stay equal ranks).
inline std::uint64_t ordered_bits(double value) noexcept {
  if (value == 0) value = 0.0;
  std::uint64_t u = 0;
  std::memcpy(&u, &value, sizeof u);
  return (u >> 63) != 0 ? ~u : u | (std::uint64_t{1} << 63);
}
inline double from_ordered_bits(std::uint64_t bits) noexcept {
  const std::uint64_t u = (bits >> 63) != 0 ? bits & ~(std::uint64_t{1} << 63) : ~bits;
  double value = 0;
  std::memcpy(&value, &u, sizeof value);
  return value;
}

template <class Value>
class LadderQueue {
 public:
  struct Entry {
    std::uint64_t bits;
    std::uint64_t sequence;
    Value value;
  };

  static constexpr std::size_t kSortMax = 48;    // a bucket this small is sorted directly
  static constexpr std::size_t kPerBucket = 24;  // entries per bucket a new rung aims at
  static constexpr std::size_t kMaxBuckets = 4096;
  static constexpr std::size_t kBottomMax = 256;  // past this a spread bottom becomes a rung

  LadderQueue() = default;
  LadderQueue(const LadderQueue&) = delete;
  LadderQueue& operator=(const LadderQueue&) = delete;
  ~LadderQueue() {
    for_each_live([this](const Record& r) { slab_.destroy(r.slot); });
  }

  bool empty() const noexcept { return size_ == 0; }
  std::size_t size() const noexcept { return size_; }

  // `sequence` must exceed every stored sequence with the same bits.
  void insert(std::uint64_t bits, std::uint64_t sequence, Value value) {
    const Record record{bits, sequence, slab_.put(std::move(value))};
    ++size_;
    if (!built() || bits >= limit_) {
      top_min_ = std::min(top_min_, bits);
      top_max_ = std::max(top_max_, bits);
      top_.push_back(record);
      return;
    }
    for (Rung& rung : rungs_) {
      if (bits >= rung.current_start()) {
        rung.buckets[rung.index_of(bits)].push_back(record);
        return;
      }
    }
    insert_bottom(record);
  }

  // The smallest entry, removed.
  std::optional<Entry> pop_front() {
    if (size_ == 0) return std::nullopt;
    if (bottom_live() == 0) refill();
    --size_;
    const Record record = bottom_[head_];
    if (head_ + kPrefetchAhead < bottom_.size()) {
      slab_.prefetch(bottom_[head_ + kPrefetchAhead].slot);
    }
    if (++head_ == bottom_.size()) {
      bottom_.clear();
      head_ = 0;
    } else if (head_ > kBottomMax && head_ > bottom_live()) {
      // The bottom never ran dry: drop its used-up front.
      bottom_.erase(bottom_.begin(), bottom_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
    return Entry{record.bits, record.sequence, slab_.take(record.slot)};
  }

  // From the largest key down: the first entry `wanted(value)` accepts, removed.
  // The largest keys are in the top, then in the highest rung's last bucket:
  // a top past kSortMax becomes a rung above the others and a last bucket past
  // kSortMax a finer rung above its own (the mirror of refill), so only a few
  // dozen records are scanned. Amortised O(1) while the largest entries are
  // wanted; each unwanted one above them adds a scan of its bucket.
  template <class Predicate>
  std::optional<Entry> take_last_if(Predicate wanted) {
    if (size_ == 0) return std::nullopt;
    if (top_.size() > kSortMax) top_to_rung();
    if (auto at = last_wanted(top_, 0, wanted)) {
      const Record record = erase_record(top_, *at);
      recompute_top_bounds();
      return take_record(record);
    }
    if (auto found = take_last_from_front_rung(wanted)) return found;
    // Below unwanted entries (rare: signals): scan whatever is left, highest first.
    for (std::size_t r = 0; r < rungs_.size(); ++r) {
      Rung& rung = rungs_[r];
      for (std::size_t b = rung.buckets.size(); b-- > rung.current;) {
        if (auto at = last_wanted(rung.buckets[b], 0, wanted)) {
          return take_record(erase_record(rung.buckets[b], *at));
        }
      }
    }
    for (std::size_t i = bottom_.size(); i-- > head_;) {  // sorted: the first hit is the last
      if (!wanted(std::as_const(slab_.at(bottom_[i].slot)))) continue;
      const Record record = erase_record(bottom_, i);
      if (head_ == bottom_.size()) {
        bottom_.clear();
        head_ = 0;
      }
      return take_record(record);
    }
    return std::nullopt;
  }

 private:
  static constexpr std::size_t kPrefetchAhead = 4;

  struct Record {
    std::uint64_t bits;
    std::uint64_t sequence;
    std::uint32_t slot;  // where the value is, in slab_
  };

  // Values by slot, in chunks that never move; freed slots are reused last
  // freed first. Past the first kSmallChunks (a backlog of tens of thousands)
  // chunks are carved from huge-page regions (huge_pages.hpp), so a pop's
  // random read of its value does not miss the TLB too.
  class Slab {
   public:
    static constexpr std::size_t kChunk = 1024;
    Slab() = default;
    Slab(const Slab&) = delete;
    Slab& operator=(const Slab&) = delete;
    ~Slab() {
      for (void* region : regions_) free_huge_region(region);
    }

    std::uint32_t put(Value&& value) {
      std::uint32_t slot = 0;
      if (!free_.empty()) {
        slot = free_.back();
        free_.pop_back();
      } else {
        if (used_ == chunks_.size() * kChunk) chunks_.push_back(new_chunk());
        slot = used_++;
      }
      ::new (static_cast<void*>(raw(slot))) Value(std::move(value));
      return slot;
    }
    Value& at(std::uint32_t slot) noexcept {
      return *std::launder(reinterpret_cast<Value*>(raw(slot)));
    }
    // The value's first and last byte (a value may straddle two cache lines).
    void prefetch(std::uint32_t slot) const noexcept {
      const unsigned char* p = chunks_[slot / kChunk]->bytes + (slot % kChunk) * sizeof(Value);
      __builtin_prefetch(p);
      __builtin_prefetch(p + sizeof(Value) - 1);
    }
    Value take(std::uint32_t slot) {
      Value& stored = at(slot);
      Value out(std::move(stored));
      stored.~Value();
      free_.push_back(slot);
      return out;
    }
    void destroy(std::uint32_t slot) noexcept { at(slot).~Value(); }

   private:
    struct Chunk {
      alignas(Value) unsigned char bytes[kChunk * sizeof(Value)];
    };
    static constexpr std::size_t kSmallChunks = 32;
    static constexpr std::size_t kChunksPerRegion = kHugeRegionBytes / sizeof(Chunk);

    Chunk* new_chunk() {
      if (!kHugeRegions || kChunksPerRegion == 0 || chunks_.size() < kSmallChunks) {
        small_.push_back(std::unique_ptr<Chunk>(new Chunk));  // left raw
        return small_.back().get();
      }
      if (region_left_ == 0) {
        regions_.reserve(regions_.size() + 1);
        regions_.push_back(allocate_huge_region());
        region_left_ = kChunksPerRegion;
      }
      Chunk* first = static_cast<Chunk*>(regions_.back());
      return first + (kChunksPerRegion - region_left_--);
    }
    unsigned char* raw(std::uint32_t slot) noexcept {
      return chunks_[slot / kChunk]->bytes + (slot % kChunk) * sizeof(Value);
    }

    std::vector<Chunk*> chunks_;  // by slot / kChunk
    std::vector<std::unique_ptr<Chunk>> small_;
    std::vector<void*> regions_;  // huge-page regions, each kChunksPerRegion chunks
    std::size_t region_left_ = 0;
    std::vector<std::uint32_t> free_;
    std::uint32_t used_ = 0;  // slots below this were handed out at least once
  };

  struct Rung {
    std::uint64_t start = 0;  // the first bucket's lower bound
    std::uint64_t end = 0;    // exclusive upper bound of the last bucket (wider than the rest)
    unsigned shift = 0;       // bucket width 2^shift
    std::size_t current = 0;  // buckets before it are used up
    std::vector<std::vector<Record>> buckets;

    std::uint64_t bucket_start(std::size_t i) const noexcept {
      return i < buckets.size() ? start + (static_cast<std::uint64_t>(i) << shift) : end;
    }
    std::uint64_t current_start() const noexcept { return bucket_start(current); }
    std::size_t index_of(std::uint64_t bits) const noexcept {
      return std::min(static_cast<std::size_t>((bits - start) >> shift), buckets.size() - 1);
    }
  };

  static bool later(const Record& a, const Record& b) noexcept {  // b after a
    return a.bits < b.bits || (a.bits == b.bits && a.sequence < b.sequence);
  }
  bool built() const noexcept { return !rungs_.empty() || bottom_live() > 0; }
  std::size_t bottom_live() const noexcept { return bottom_.size() - head_; }
  // Everything below this is in the rungs or the bottom.
  std::uint64_t lowest_rung_start() const noexcept {
    return rungs_.empty() ? limit_ : rungs_.back().current_start();
  }

  void recompute_top_bounds() noexcept {
    top_min_ = std::numeric_limits<std::uint64_t>::max();
    top_max_ = 0;
    for (const Record& e : top_) {
      top_min_ = std::min(top_min_, e.bits);
      top_max_ = std::max(top_max_, e.bits);
    }
  }

  Entry take_record(const Record& record) {
    --size_;
    return Entry{record.bits, record.sequence, slab_.take(record.slot)};
  }
  // Order-preserving: equal bits stay in sequence order.
  static Record erase_record(std::vector<Record>& records, std::size_t at) {
    const Record record = records[at];
    records.erase(records.begin() + static_cast<std::ptrdiff_t>(at));
    return record;
  }
  // The index of the largest record in records[from, end) that `wanted` accepts.
  // The largest first, by key alone: usually it is wanted, and asking reads
  // its value, likely a cache miss, so others are asked only when it is not.
  template <class Predicate>
  std::optional<std::size_t> last_wanted(const std::vector<Record>& records, std::size_t from,
                                         Predicate& wanted) {
    if (from == records.size()) return std::nullopt;
    std::size_t largest = from;
    for (std::size_t i = from + 1; i < records.size(); ++i) {
      if (later(records[largest], records[i])) largest = i;
    }
    if (wanted(std::as_const(slab_.at(records[largest].slot)))) return largest;
    std::optional<std::size_t> at;
    for (std::size_t i = from; i < records.size(); ++i) {
      if (i == largest || (at && !later(records[*at], records[i]))) continue;
      if (wanted(std::as_const(slab_.at(records[i].slot)))) at = i;
    }
    return at;
  }

  // The top, above everything else, becomes the highest rung.
  void top_to_rung() {
    limit_ = top_max_ + 1;  // top_max_ < 2^64 - 1: no non-NaN double maps to all ones
    Rung rung = make_rung(top_min_, top_max_, limit_, top_.size());
    spread(top_, rung, counts_);
    rungs_.insert(rungs_.begin(), std::move(rung));
    recompute_top_bounds();
  }

  // The highest rung's last bucket holds keys in [its start, limit_) (arrivals
  // at or above limit_ go to the top). Empty last buckets are cut off, lowering
  // limit_ to keep that true; a large last bucket becomes a finer rung; one
  // whose range is a single key is in sequence order, so its last wanted
  // record is found from the back.
  template <class Predicate>
  std::optional<Entry> take_last_from_front_rung(Predicate& wanted) {
    while (!rungs_.empty()) {
      Rung& rung = rungs_.front();
      while (rung.buckets.size() > rung.current && rung.buckets.back().empty()) {
        cut_last_bucket(rung);
        limit_ = rung.end;  // what arrives above now goes to the top
      }
      if (rung.current == rung.buckets.size()) {
        rungs_.erase(rungs_.begin());
        continue;
      }
      std::vector<Record>& bucket = rung.buckets.back();
      const std::uint64_t first = rung.bucket_start(rung.buckets.size() - 1);
      if (limit_ - first == 1) {
        for (std::size_t i = bucket.size(); i-- > 0;) {
          if (wanted(std::as_const(slab_.at(bucket[i].slot)))) {
            return take_record(erase_record(bucket, i));
          }
        }
        return std::nullopt;
      }
      if (bucket.size() <= kSortMax) {
        if (auto at = last_wanted(bucket, 0, wanted)) return take_record(erase_record(bucket, *at));
        return std::nullopt;
      }
      std::uint64_t lo = bucket.front().bits, hi = lo;
      for (const Record& e : bucket) {
        lo = std::min(lo, e.bits);
        hi = std::max(hi, e.bits);
      }
      std::vector<Record> entries = std::move(bucket);
      cut_last_bucket(rung);  // the finer rung above takes [first, limit_)
      if (rung.current == rung.buckets.size()) rungs_.erase(rungs_.begin());
      // Equal keys get a bucket of their own: [lo, lo + 1), then the rest.
      Rung finer = make_rung(lo, std::max(hi, lo + 1), limit_, entries.size());
      spread(entries, finer, counts_);
      rungs_.insert(rungs_.begin(), std::move(finer));  // `rung`, `bucket` invalid from here
    }
    return std::nullopt;
  }
  void cut_last_bucket(Rung& rung) {
    rung.end = rung.bucket_start(rung.buckets.size() - 1);
    rung.buckets.pop_back();
  }

  // Sorted insert into [head_, end): shifts whichever side is shorter.
  void insert_bottom(Record entry) {
    auto first = bottom_.begin() + static_cast<std::ptrdiff_t>(head_);
    auto at = std::upper_bound(first, bottom_.end(), entry,
                               [](const Record& a, const Record& b) { return later(a, b); });
    const auto p = static_cast<std::size_t>(at - bottom_.begin());
    if (head_ > 0 && p - head_ < bottom_.size() - p) {
      for (std::size_t i = head_; i < p; ++i) bottom_[i - 1] = std::move(bottom_[i]);
      --head_;
      bottom_[p - 1] = std::move(entry);
    } else {
      bottom_.insert(at, std::move(entry));
    }
    if (bottom_live() > kBottomMax && bottom_[head_].bits != bottom_.back().bits) {
      bottom_to_rung();
    }
  }

  // A bottom grown large (arrivals keep landing below the rungs) becomes the
  // lowest rung, so sorted inserts stay short.
  void bottom_to_rung() {
    Rung rung =
        make_rung(bottom_[head_].bits, bottom_.back().bits, lowest_rung_start(), bottom_live());
    for (std::size_t i = head_; i < bottom_.size(); ++i) {
      rung.buckets[rung.index_of(bottom_[i].bits)].push_back(bottom_[i]);
    }
    bottom_.clear();
    head_ = 0;
    rungs_.push_back(std::move(rung));
  }

  // A rung over [lo, end) for about `count` entries whose keys lie in [lo, hi]
  // (hi < end): the buckets divide [lo, hi], the last one reaches to `end` for
  // later arrivals.
  static Rung make_rung(std::uint64_t lo, std::uint64_t hi, std::uint64_t end, std::size_t count) {
    const std::size_t wanted = std::clamp<std::size_t>(count / kPerBucket, 2, kMaxBuckets);
    const std::uint64_t span = hi - lo;
    unsigned shift = 0;
    while (shift < 63 && (span >> shift) >= wanted) ++shift;
    Rung rung;
    rung.start = lo;
    rung.end = end;
    rung.shift = shift;
    rung.buckets.resize(static_cast<std::size_t>(span >> shift) + 1);
    return rung;
  }

  // Spreads `entries` (in order) over `rung`, each bucket sized for what it
  // gets plus a quarter for later arrivals (an exact fit would copy the whole
  // bucket at its first arrival).
  static void spread(std::vector<Record>& entries, Rung& rung, std::vector<std::uint32_t>& counts) {
    counts.assign(rung.buckets.size(), 0);
    for (const Record& e : entries) ++counts[rung.index_of(e.bits)];
    for (std::size_t b = 0; b < counts.size(); ++b) {
      if (counts[b] > 0) rung.buckets[b].reserve(counts[b] + counts[b] / 4 + 4);
    }
    for (const Record& e : entries) rung.buckets[rung.index_of(e.bits)].push_back(e);
    entries.clear();
  }

  // Sorts `bucket` into the (empty) bottom by (bits, sequence), which within a
  // bucket is (bits, position).
  void sort_into_bottom(std::vector<Record>& bucket) {
    std::sort(bucket.begin(), bucket.end(), [](const Record& a, const Record& b) {
      return a.bits < b.bits || (a.bits == b.bits && a.sequence < b.sequence);
    });
    bottom_.clear();
    head_ = 0;
    bottom_.swap(bucket);  // the bucket keeps the bottom's old buffer
    for (std::size_t i = 0; i < kPrefetchAhead && i < bottom_.size(); ++i) {
      slab_.prefetch(bottom_[i].slot);
    }
  }

  template <class F>
  void for_each_live(F f) {
    for (const Record& r : top_) f(r);
    for (const Rung& rung : rungs_) {
      for (std::size_t b = rung.current; b < rung.buckets.size(); ++b) {
        for (const Record& r : rung.buckets[b]) f(r);
      }
    }
    for (std::size_t i = head_; i < bottom_.size(); ++i) f(bottom_[i]);
  }

  // The bottom is empty and size_ > 0: bring the next entries into it.
  void refill() {
    for (;;) {
      if (rungs_.empty()) {
        // Everything left is in the top; all of it is >= every key taken so far.
        const std::uint64_t lo = top_min_, hi = top_max_;
        limit_ = hi + 1;  // hi < 2^64 - 1: no non-NaN double maps to all ones
        if (top_.size() <= kSortMax) {
          sort_into_bottom(top_);
        } else {
          Rung rung = make_rung(lo, hi, limit_, top_.size());
          spread(top_, rung, counts_);
          rungs_.push_back(std::move(rung));
        }
        recompute_top_bounds();
        if (bottom_live() > 0) return;
        continue;
      }
      Rung& rung = rungs_.back();
      while (rung.current < rung.buckets.size() && rung.buckets[rung.current].empty()) {
        ++rung.current;
      }
      if (rung.current == rung.buckets.size()) {
        rungs_.pop_back();
        continue;
      }
      std::vector<Record>& bucket = rung.buckets[rung.current];
      const std::uint64_t bucket_end = rung.bucket_start(rung.current + 1);
      ++rung.current;
      // A used-up rung goes at once: arrivals at or above its start belong to
      // the rung below it (or the bottom) now, not to its spent last bucket.
      const bool used_up = rung.current == rung.buckets.size();
      std::uint64_t lo = bucket.front().bits, hi = lo;
      for (const Record& e : bucket) {
        lo = std::min(lo, e.bits);
        hi = std::max(hi, e.bits);
      }
      if (bucket.size() <= kSortMax || lo == hi) {
        sort_into_bottom(bucket);
        if (used_up) rungs_.pop_back();
        return;
      }
      // Too many to sort at once: a finer rung over this bucket's range.
      std::vector<Record> entries = std::move(bucket);
      bucket = std::vector<Record>();
      if (used_up) rungs_.pop_back();
      Rung finer = make_rung(lo, hi, bucket_end, entries.size());
      spread(entries, finer, counts_);
      rungs_.push_back(std::move(finer));  // `rung` and `bucket` are invalid from here
    }
  }

  Slab slab_;  // first: destroyed after the records that name its slots
  std::vector<Record> top_;
  std::uint64_t top_min_ = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t top_max_ = 0;
  std::uint64_t limit_ = 0;  // keys >= limit_ go to the top (once something is built)
  std::vector<Rung> rungs_;  // back: the lowest range
  std::vector<Record> bottom_;
  std::size_t head_ = 0;  // bottom_[head_, end) are live, ascending
  std::size_t size_ = 0;
  std::vector<std::uint32_t> counts_;  // scratch for spreading
};

}  // namespace mailroom::detail
