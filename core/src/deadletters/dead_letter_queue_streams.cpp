// DeadLetterQueue, the read-only view of other streams in the same journal
// (a database several processes write, each its own stream).
#include <algorithm>

#include "mailroom/actor_path.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/metrics_registry.hpp"
#include "recipient_path.hpp"

namespace mailroom {
namespace {
// Live letters asked of the journal at a time when a list has a limit.
constexpr std::size_t kStreamChunk = 64;
}  // namespace

std::vector<std::string> DeadLetterQueue::list_streams() {
  if (!persistent()) return {};
  std::vector<std::string> out;
  const std::string prefix = DeadLetterQueueSettings::default_persistence_id("");
  for (std::string& stream : deps_.journal->streams()) {
    if (stream.rfind(prefix, 0) == 0 || stream == settings_.persistence_id) {
      out.push_back(std::move(stream));
    }
  }
  if (std::find(out.begin(), out.end(), settings_.persistence_id) == out.end()) {
    out.push_back(settings_.persistence_id);  // listed before its first record too
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<JournaledDeadLetter> DeadLetterQueue::list_stream(const std::string& stream,
                                                              const DeadLetterFilter& filter) {
  std::vector<JournaledDeadLetter> out;
  if (!persistent() || (filter.limit && *filter.limit == 0)) return out;
  if (stream == settings_.persistence_id) flush();  // this queue's own appends are visible too
  std::optional<std::string> wanted;
  if (filter.recipient) wanted = detail::strip_scheme_and_system(*filter.recipient);
  // The store narrows what it can (SQL on the database journals); the loop
  // below still decides every letter.
  JournalLetterFilter narrow;
  if (wanted && !wanted->empty() && *wanted != "/") narrow.recipient_root = *wanted;
  narrow.since_ms = filter.since_ms;
  narrow.until_ms = filter.until_ms;
  // True while more are wanted.
  auto keep = [&](JournaledDeadLetter&& letter) {
    if (filter.since_ms && letter.timestamp_ms < *filter.since_ms) return true;
    if (filter.until_ms && letter.timestamp_ms > *filter.until_ms) return true;
    if (wanted && !ActorPath::in_subtree(letter.recipient_path, *wanted)) return true;
    if (filter.before && letter.sequence >= *filter.before) return true;
    out.push_back(std::move(letter));
    return !(filter.limit && out.size() >= *filter.limit);
  };
  // With a limit, from the journal's pages of live letters where it has them
  // (the database journals: SQL with LIMIT below the cursor's sequence), so a
  // page reads the page and what the filters skip, not the whole stream.
  if (filter.limit) {
    std::optional<std::uint64_t> before = filter.before;
    const std::size_t chunk = std::max(*filter.limit, kStreamChunk);
    auto page = deps_.journal->read_live_letters(stream, narrow, before, chunk);
    if (page) {
      while (true) {
        std::vector<std::uint64_t> released;
        JournalReadResult read;
        for (auto it = page->rbegin(); it != page->rend(); ++it) {  // the fold's order
          if (it->released) released.push_back(it->captured.sequence);
          read.records.push_back(std::move(it->captured));
        }
        std::sort(released.begin(), released.end());
        DeadLetterJournalContents contents = read_dead_letter_journal(std::move(read));
        for (auto it = contents.letters.rbegin(); it != contents.letters.rend(); ++it) {
          if (std::binary_search(released.begin(), released.end(), it->sequence)) {
            it->replay_count = 0;
          }
          if (!keep(std::move(*it))) return out;
        }
        if (page->size() < chunk) return out;
        before = page->back().captured.sequence;  // the oldest read (moved-from: kept)
        page = deps_.journal->read_live_letters(stream, narrow, before, chunk);
        if (!page) return out;
      }
    }
  }
  DeadLetterJournalContents contents =
      read_dead_letter_journal(deps_.journal->read_letters(stream, narrow));
  for (auto it = contents.letters.rbegin(); it != contents.letters.rend(); ++it) {
    if (!keep(std::move(*it))) break;
  }
  return out;
}

std::vector<std::pair<std::string, std::size_t>> DeadLetterQueue::stream_sizes() {
  std::vector<std::pair<std::string, std::size_t>> out;
  const std::vector<std::string> streams = list_streams();
  if (streams.empty()) return out;
  flush();  // this queue's own appends are counted too
  const auto counts = deps_.journal->count_letters();
  for (const std::string& stream : streams) {
    std::size_t size = 0;
    if (!counts) {
      size = list_stream(stream).size();
    } else if (auto it = counts->find(stream); it != counts->end()) {
      size = static_cast<std::size_t>(it->second);
    }
    out.emplace_back(stream, size);
  }
  return out;
}

void DeadLetterQueue::register_backlog_gauge() {
  if (deps_.metrics == nullptr || !deps_.journal->backlog()) return;
  std::weak_ptr<Journal> weak = deps_.journal;
  deps_.metrics->add_collector([weak, stream = settings_.persistence_id](MetricsWriter& writer) {
    auto journal = weak.lock();
    if (!journal) return;
    if (auto backlog = journal->backlog()) {
      writer.gauge("mailroom_journal_backlog",
                   "Journal records appended but not yet stored (the database is away)",
                   {{"stream", stream}}, static_cast<double>(*backlog));
    }
  });
}

}  // namespace mailroom
