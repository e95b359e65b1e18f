// Test doubles for the dead-letter queue: a ReplayTarget standing in for the
// runtime and a Journal kept in a vector, so the queue is tested without a
// running system or a file system.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "mailroom/dead_letter.hpp"
#include "mailroom/dead_letter_sink.hpp"
#include "mailroom/dead_letter_store.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/journal.hpp"
#include "mailroom/replay_outcome.hpp"
#include "mailroom/replay_target.hpp"

namespace mailroom {

// Lets GoogleTest print outcomes and stores by name.
inline void PrintTo(ReplayOutcome outcome, std::ostream* os) {
  *os << to_string(outcome);
}
inline void PrintTo(DeadLetterStore store, std::ostream* os) {
  *os << to_string(store);
}

}  // namespace mailroom

namespace mailroom::testing {

// A letter as a sink is handed it, its fields set by name: positional
// DeadLetter{...} breaks silently when the struct gains a field (and trips
// -Wmissing-field-initializers).
inline DeadLetter make_letter(Message message, std::string recipient_path,
                              std::string sender_path = "", std::uint64_t replay_entry = 0,
                              ActorRef sender = {}, ActorRef recipient = {}) {
  DeadLetter letter;
  letter.message = std::move(message);
  letter.sender = std::move(sender);
  letter.recipient = std::move(recipient);
  letter.recipient_path = std::move(recipient_path);
  letter.sender_path = std::move(sender_path);
  letter.replay_entry = replay_entry;
  return letter;
}

// Live user actors of a system named "shop", each with a delivery behaviour.
class FakeReplayTarget final : public ReplayTarget {
 public:
  enum class Mode {
    kAccept,      // the envelope is delivered
    kReject,      // the mailbox refuses: MailboxFullError
    kDeadLetter,  // the actor cannot take it: dead-letters again, synchronously
  };
  struct Delivery {
    std::string path;
    Envelope envelope;
  };

  // Adds a live actor; returns its ref. The ref's cell is a dummy address
  // the queue only compares, never dereferences (the runtime is not linked).
  ActorRef spawn(const std::string& local, Mode mode = Mode::kAccept) {
    auto owner = std::make_shared<int>(0);
    ActorRef ref(std::shared_ptr<detail::ActorCell>(
        owner, reinterpret_cast<detail::ActorCell*>(owner.get())));
    actors_[local] = Actor{ref, mode};
    return ref;
  }
  void stop(const std::string& local) { actors_.erase(local); }
  void set_sink(DeadLetterSink* sink) { sink_ = sink; }

  std::optional<ActorRef> resolve_user_actor(std::string_view path) override {
    resolved.emplace_back(path);
    const std::string local = local_path(path);
    if (local.rfind("/user/", 0) != 0) return std::nullopt;
    auto it = actors_.find(local);
    if (it == actors_.end()) return std::nullopt;
    return it->second.ref;
  }

  std::string local_path(std::string_view path) const override {
    if (!path.empty() && path.front() == '/') return std::string(path);
    for (std::string_view prefix : {"mailroom://shop", "actor-ts://shop"}) {
      if (path.substr(0, prefix.size()) == prefix) {
        std::string_view rest = path.substr(prefix.size());
        if (rest.empty()) return "/";
        if (rest.front() == '/') return std::string(rest);
      }
    }
    return "";
  }

  void deliver(const ActorRef& recipient, Envelope envelope) override {
    for (auto& [path, actor] : actors_) {
      if (actor.ref != recipient) continue;
      if (actor.mode == Mode::kReject) throw MailboxFullError(path, 1);
      deliveries.push_back(Delivery{path, envelope});
      if (actor.mode == Mode::kDeadLetter && sink_ != nullptr) {
        sink_->capture(make_letter(envelope.message, path, sender_path_of(envelope.sender),
                                   envelope.replay_entry, envelope.sender, recipient));
      }
      return;
    }
  }

  std::vector<Delivery> deliveries;
  std::vector<std::string> resolved;  // every path asked for, in order

 private:
  struct Actor {
    ActorRef ref;
    Mode mode = Mode::kAccept;
  };
  std::string sender_path_of(const ActorRef& sender) const {
    for (const auto& [path, actor] : actors_) {
      if (sender && actor.ref == sender) return path;
    }
    return "";
  }
  std::map<std::string, Actor> actors_;
  DeadLetterSink* sink_ = nullptr;
};

// A Journal in memory; counts flushes and can pretend its tail was torn.
class FakeJournal final : public Journal {
 public:
  JournalReadResult read(const std::string& stream) override {
    ++reads;
    JournalReadResult result;
    result.records = streams_[stream].records;
    if (damage_next_read) {
      result.damaged = true;
      result.damaged_at_offset = 123;
      result.damage = "torn tail";
      damage_next_read = false;
    }
    return result;
  }
  std::uint64_t append(const std::string& stream, std::string payload) override {
    Stream& s = streams_[stream];
    s.records.push_back(JournalRecord{++s.last, std::move(payload)});
    ++appends;
    return s.last;
  }
  void flush() override { ++flushes; }
  void delete_up_to(const std::string& stream, std::uint64_t up_to) override {
    auto& records = streams_[stream].records;
    std::vector<JournalRecord> kept;
    for (auto& r : records) {
      if (r.sequence > up_to) kept.push_back(std::move(r));
    }
    records = std::move(kept);
  }

  std::vector<JournalRecord>& records(const std::string& stream) {
    return streams_[stream].records;
  }

  int reads = 0;
  int appends = 0;
  int flushes = 0;
  bool damage_next_read = false;

 private:
  struct Stream {
    std::uint64_t last = 0;
    std::vector<JournalRecord> records;
  };
  std::map<std::string, Stream> streams_;
};

}  // namespace mailroom::testing
