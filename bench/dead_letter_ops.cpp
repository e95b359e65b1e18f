#include "dead_letter_ops.hpp"

#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "mailroom/dead_letter_filter.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/detail/block_pool.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom::bench {
namespace {

DeadLetter letter(std::size_t i, std::size_t recipients) {
  DeadLetter l;
  l.message = Message(static_cast<int>(i));
  l.recipient_path = "/user/orders-" + std::to_string(i % recipients) + "/worker";
  return l;
}

PayloadCodecRegistry& codecs() {
  static PayloadCodecRegistry* registry = [] {
    auto* r = new PayloadCodecRegistry();  // lives for the whole run
    r->add<int>(
        "int", [](const int& v) { return nlohmann::json(v); },
        [](const nlohmann::json& j) { return j.get<int>(); });
    return r;
  }();
  return *registry;
}

}  // namespace

CaptureBench::CaptureBench(const std::string& store, std::int64_t sync_within_ms) {
  DeadLetterQueueSettings settings;
  settings.sync_within_ms = sync_within_ms;
  settings.store = store == "persistent" ? DeadLetterStore::kPersistent : DeadLetterStore::kMemory;
  settings.persistence_id = "bench";
  DeadLetterQueue::Dependencies deps;
  deps.codecs = &codecs();
  if (store == "persistent") {
    dir_ = (std::filesystem::temp_directory_path() / "mailroom-bench-journal").string();
    std::filesystem::remove_all(dir_);
    deps.journal = std::make_shared<FileJournal>(dir_);
  }
  queue_ = std::make_unique<DeadLetterQueue>(settings, std::move(deps));
  for (std::size_t i = 0; i < 4096; ++i) letters_.push_back(letter(i, 100));
}

CaptureBench::~CaptureBench() {
  queue_.reset();
  if (!dir_.empty()) std::filesystem::remove_all(dir_);
}

void CaptureBench::capture_one() {
  queue_->capture(letters_[next_++ & 4095]);
}

ListBench::ListBench(std::size_t entries, bool clock_back) {
  DeadLetterQueueSettings settings;
  settings.store = DeadLetterStore::kMemory;
  settings.max_entries = entries;
  settings.retention_ms = 0;
  DeadLetterQueue::Dependencies deps;
  // 10 letters a millisecond; with clock_back the second half's clock starts
  // again where the first half's did (the queue is then out of time order).
  deps.now_ms = [this] { return 1'000 + static_cast<std::int64_t>(tick_ / 10); };
  queue_ = std::make_unique<DeadLetterQueue>(settings, std::move(deps));
  for (std::size_t i = 0; i < entries; ++i) {
    if (clock_back && i == entries / 2) tick_ = 0;
    queue_->capture(letter(i, 100));
    ++tick_;
  }
}

ListBench::~ListBench() = default;

std::vector<DeadLetterEntry> ListBench::list_recipient() {
  DeadLetterFilter filter;
  filter.recipient = "mailroom://bench/user/orders-7";
  return queue_->list(filter);
}

std::size_t ListBench::page_walk(std::size_t page, bool continued) {
  std::size_t paged = 0;
  if (continued) {
    std::optional<std::uint64_t> cursor;  // the last entry's position
    for (;;) {
      DeadLetterFilter filter;
      filter.before = cursor;
      filter.limit = page + 1;
      const std::vector<DeadLetterEntry> read = queue_->list(filter);
      const std::size_t kept = std::min(read.size(), page);
      paged += kept;
      if (read.size() <= page) return paged;
      cursor = read[kept - 1].position;
    }
  }
  struct Key {
    std::int64_t timestamp_ms;
    std::uint64_t id;
  };
  std::optional<Key> cursor;  // the last entry's (time, id), as before d793050
  for (;;) {
    DeadLetterFilter filter;
    std::vector<DeadLetterEntry> read;
    std::size_t kept = 0;
    std::size_t first = 0;
    if (cursor) {
      filter.until_ms = cursor->timestamp_ms;
      read = queue_->list(filter);
      while (first < read.size() && read[first].timestamp_ms == cursor->timestamp_ms &&
             read[first].id >= cursor->id) {
        ++first;
      }
    } else {
      filter.limit = page + 1;
      read = queue_->list(filter);
    }
    kept = std::min(read.size() - first, page);
    paged += kept;
    if (read.size() - first <= page) return paged;
    const DeadLetterEntry& last = read[first + kept - 1];
    cursor = Key{last.timestamp_ms, last.id};
  }
}

namespace {
std::size_t heap_in_use() {
#ifdef __EMSCRIPTEN__
  return static_cast<std::size_t>(mallinfo().uordblks);
#else
  return mallinfo2().uordblks;
#endif
}
}  // namespace

double bytes_per_queued_envelope(std::size_t count) {
  UnboundedMailbox box;
  // Recycled blocks would hide the cost: start from an empty pool.
  detail::release_idle_blocks();
  const auto before = heap_in_use();
  for (std::size_t i = 0; i < count; ++i)
    box.enqueue(Envelope{Message(static_cast<int>(i)), {}, {}, 0});
  const auto after = heap_in_use();
  return static_cast<double>(after - before) / static_cast<double>(count);
}

}  // namespace mailroom::bench
