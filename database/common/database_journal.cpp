#include "mailroom/database_journal.hpp"

#include <algorithm>
#include <iostream>
#include <stdexcept>

#include "mailroom/journal_database_errors.hpp"

namespace mailroom {

DatabaseJournal::DatabaseJournal(std::unique_ptr<DatabaseBackend> backend,
                                 DatabaseJournalOptions options, bool read_only)
    : options_(options),
      read_only_(read_only),
      backend_(std::move(backend)),
      location_(backend_->location()) {
  if (options_.batch_records == 0) options_.batch_records = 1;
  if (!read_only_) writer_ = std::thread([this] { writer_loop(); });
}

DatabaseJournal::~DatabaseJournal() {
  if (writer_.joinable()) {
    try {
      flush();
    } catch (const std::exception& e) {
      std::cerr << "mailroom: journal " << location_ << ": " << e.what() << "\n";
    }
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    writer_.join();
  }
  std::lock_guard db(db_mutex_);
  for (auto& [name, stream] : streams_) {
    if (!stream.writer) continue;
    if (const std::size_t left = stream.queued.size(); left > 0) {
      std::cerr << "mailroom: journal " << location_ << ": " << left << " records of stream '"
                << name << "' were never stored\n";
    }
    try {
      backend_->release(name);
    } catch (...) {
      // The guard goes with the connection (PostgreSQL) or the dead process (SQLite).
    }
  }
}

std::string DatabaseJournal::location() const {
  return location_;
}

std::string DatabaseJournal::unavailable_reason() const {
  std::lock_guard lock(mutex_);
  return unavailable_;
}

std::optional<std::uint64_t> DatabaseJournal::backlog() const {
  return backlog_.load(std::memory_order_relaxed);
}

DatabaseJournal::Stream& DatabaseJournal::become_writer_locked(const std::string& stream) {
  if (read_only_) {
    throw std::logic_error("journal " + location_ + " is open read-only: cannot write stream '" +
                           stream + "'");
  }
  Stream& state = streams_[stream];
  if (state.failed) std::rethrow_exception(state.failed);
  if (!state.writer) {
    std::lock_guard db(db_mutex_);
    const std::uint64_t stored = backend_->acquire(stream);
    state.last_sequence = std::max(state.last_sequence, stored);
    state.writer = true;
  }
  return state;
}

void DatabaseJournal::acquire(const std::string& stream) {
  std::lock_guard lock(mutex_);
  become_writer_locked(stream);
}

std::uint64_t DatabaseJournal::append(const std::string& stream, std::string payload) {
  std::unique_lock lock(mutex_);
  Stream& state = become_writer_locked(stream);
  const std::uint64_t waiting = backlog_.load(std::memory_order_relaxed);
  if (waiting >= options_.max_backlog) throw JournalBacklogFullError(stream, waiting, location_);
  const std::uint64_t sequence = ++state.last_sequence;
  state.queued.emplace_back(sequence, std::move(payload));
  backlog_.fetch_add(1, std::memory_order_relaxed);
  // The writer sleeps until there is work: the first waiting record of a
  // stream wakes it (it then lets a batch gather for commit_interval), a full
  // batch wakes it again. Without the first wake a record would wait for the
  // next flush() (another process reading the stream would not see it).
  const std::size_t waiting_here = state.queued.size() - state.in_flight;
  const bool wake = waiting_here == 1 || waiting_here >= options_.batch_records;
  lock.unlock();
  if (wake) work_.notify_one();
  return sequence;
}

void DatabaseJournal::delete_up_to(const std::string& stream, std::uint64_t up_to) {
  std::unique_lock lock(mutex_);
  Stream& state = become_writer_locked(stream);
  if (up_to <= state.delete_mark) return;
  state.delete_mark = up_to;
  // Queued records it covers need never be written; those in flight are.
  auto first = state.queued.begin() + static_cast<std::ptrdiff_t>(state.in_flight);
  auto last = first;
  while (last != state.queued.end() && last->first <= up_to) ++last;
  const auto dropped = static_cast<std::uint64_t>(last - first);
  state.queued.erase(first, last);
  backlog_.fetch_sub(dropped, std::memory_order_relaxed);
  lock.unlock();
  work_.notify_one();
}

bool DatabaseJournal::idle_locked() const {
  for (const auto& [name, stream] : streams_) {
    if (stream.failed) continue;
    if (!stream.queued.empty() || stream.delete_mark > stream.deleted) return false;
  }
  return true;
}

void DatabaseJournal::flush() {
  if (read_only_) return;
  std::unique_lock lock(mutex_);
  ++flushes_waiting_;
  work_.notify_one();
  const bool done = done_.wait_for(lock, options_.flush_timeout, [this] { return idle_locked(); });
  --flushes_waiting_;
  for (const auto& [name, stream] : streams_) {
    if (stream.failed) std::rethrow_exception(stream.failed);
  }
  if (!done) {
    throw JournalUnavailableError(
        location_, (unavailable_.empty() ? std::string("writes are slow") : unavailable_) + "; " +
                       std::to_string(backlog_.load()) +
                       " records wait and are retried (flush timed out)");
  }
}

void DatabaseJournal::release(const std::string& stream) {
  flush();  // throws while records still wait: the guard is kept for them
  std::lock_guard lock(mutex_);
  auto it = streams_.find(stream);
  if (it == streams_.end() || !it->second.writer) return;
  std::lock_guard db(db_mutex_);
  backend_->release(stream);
  it->second.writer = false;
}

JournalReadResult DatabaseJournal::read(const std::string& stream) {
  return read_letters(stream, {});
}

JournalReadResult DatabaseJournal::read_letters(const std::string& stream,
                                                const JournalLetterFilter& filter) {
  bool own = false;
  {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream);
    own = it != streams_.end() && it->second.writer;
  }
  if (own) flush();  // a writer reads what it appended
  JournalReadResult out;
  std::lock_guard db(db_mutex_);
  out.records = filter.empty() ? backend_->read(stream) : backend_->read_letters(stream, filter);
  return out;
}

std::optional<std::vector<JournalLiveLetter>> DatabaseJournal::read_live_letters(
    const std::string& stream, const JournalLetterFilter& filter,
    std::optional<std::uint64_t> before, std::size_t limit) {
  bool own = false;
  {
    std::lock_guard lock(mutex_);
    auto it = streams_.find(stream);
    own = it != streams_.end() && it->second.writer;
  }
  if (own) flush();  // a writer reads what it appended
  std::lock_guard db(db_mutex_);
  return backend_->read_live_letters(stream, filter, before, limit);
}

std::vector<std::string> DatabaseJournal::streams() {
  std::lock_guard db(db_mutex_);
  return backend_->streams();
}

std::optional<std::map<std::string, std::uint64_t>> DatabaseJournal::count_letters() {
  bool writes = false;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [name, stream] : streams_) writes = writes || stream.writer;
  }
  if (writes) flush();  // a writer counts what it appended
  std::lock_guard db(db_mutex_);
  return backend_->count_letters();
}

void DatabaseJournal::writer_loop() {
  std::unique_lock lock(mutex_);
  auto retry = options_.retry_min;
  while (true) {
    work_.wait(lock, [this] { return stopping_ || !idle_locked(); });
    if (stopping_ && idle_locked()) return;
    // Let a batch gather unless it is full, someone flushes or we stop.
    auto ready = [this] {
      if (stopping_ || flushes_waiting_ > 0) return true;
      for (const auto& [name, s] : streams_) {
        if (!s.failed && s.queued.size() >= options_.batch_records) return true;
      }
      return false;
    };
    work_.wait_for(lock, options_.commit_interval, ready);
    if (write_round(lock)) {
      retry = options_.retry_min;
      unavailable_.clear();
      done_.notify_all();
    } else {
      done_.notify_all();     // flush() re-checks its deadline
      if (stopping_) return;  // the destructor already waited flush_timeout
      work_.wait_for(lock, retry, [this] { return stopping_; });
      retry = std::min(retry * 2, options_.retry_max);
    }
  }
}

bool DatabaseJournal::write_round(std::unique_lock<std::mutex>& lock) {
  std::vector<std::string> names;
  for (const auto& [name, s] : streams_) {
    if (!s.failed && (!s.queued.empty() || s.delete_mark > s.deleted)) names.push_back(name);
  }
  for (const std::string& name : names) {
    while (true) {
      Stream& s = streams_[name];
      if (s.failed) break;
      std::vector<DatabaseRow> rows;
      const std::size_t n = std::min(s.queued.size(), options_.batch_records);
      std::uint64_t delete_to = 0;
      if (n == 0) {
        if (s.delete_mark <= s.deleted) break;
        delete_to = s.delete_mark;
      } else {
        // Copies: the queue keeps its records until the database has them.
        rows.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
          rows.emplace_back().sequence = s.queued[i].first;
          rows.back().payload = s.queued[i].second;
        }
        s.in_flight = n;
      }
      lock.unlock();
      std::exception_ptr error;
      bool away = false;
      try {
        // The dead-letter columns, parsed here rather than under the queue's lock.
        for (auto& row : rows) row = make_database_row(row.sequence, std::move(row.payload));
        std::lock_guard db(db_mutex_);
        if (!rows.empty()) {
          backend_->append(name, rows);
        } else {
          backend_->delete_up_to(name, delete_to);
        }
      } catch (const JournalUnavailableError& e) {
        away = true;
        error = std::current_exception();
        lock.lock();
        unavailable_ = e.what();
        lock.unlock();
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      Stream& after = streams_[name];
      after.in_flight = 0;
      if (away) return false;
      if (error) {
        after.failed = error;  // kept queued: nothing is dropped, flush() reports it
        break;
      }
      if (!rows.empty()) {
        after.queued.erase(after.queued.begin(),
                           after.queued.begin() + static_cast<std::ptrdiff_t>(n));
        backlog_.fetch_sub(n, std::memory_order_relaxed);
      } else {
        after.deleted = std::max(after.deleted, delete_to);
      }
      done_.notify_all();
    }
  }
  return true;
}

}  // namespace mailroom
