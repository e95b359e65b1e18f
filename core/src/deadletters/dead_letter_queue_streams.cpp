// DeadLetterQueue, the read-only view of other streams in the same journal
// (a database several processes write, each its own stream).
#include <algorithm>

#include "mailroom/actor_path.hpp"
#include "mailroom/dead_letter_journal_reader.hpp"
#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/metrics_registry.hpp"
#include "recipient_path.hpp"

namespace mailroom {

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
  DeadLetterJournalContents contents =
      read_dead_letter_journal(deps_.journal->read_letters(stream, narrow));
  for (auto it = contents.letters.rbegin(); it != contents.letters.rend(); ++it) {
    if (filter.since_ms && it->timestamp_ms < *filter.since_ms) continue;
    if (filter.until_ms && it->timestamp_ms > *filter.until_ms) continue;
    if (wanted && !ActorPath::in_subtree(it->recipient_path, *wanted)) continue;
    if (filter.before && it->sequence >= *filter.before) continue;
    out.push_back(std::move(*it));
    if (filter.limit && out.size() >= *filter.limit) break;
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
