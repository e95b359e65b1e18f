// Accounting for every envelope: each shed one is destroyed exactly once and
// nothing leaks (a lifetime-counting payload), and under concurrent producers
// every message sent is delivered, dropped or rejected — never lost.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/mailbox.hpp"
#include "mailroom/priority_mailbox.hpp"

namespace mailroom {
namespace {

// Counts its live instances; copies and moves count as instances too.
struct Tracked {
  static std::atomic<long> live;
  int producer;
  int seq;
  Tracked(int p, int s) : producer(p), seq(s) { ++live; }
  Tracked(const Tracked& other) : producer(other.producer), seq(other.seq) { ++live; }
  Tracked(Tracked&& other) noexcept : producer(other.producer), seq(other.seq) { ++live; }
  Tracked& operator=(const Tracked&) = default;
  ~Tracked() { --live; }
};
std::atomic<long> Tracked::live{0};

Envelope tracked(int producer, int seq) {
  return Envelope{Message(Tracked(producer, seq)), {}, {}, 0};
}
int seq_of(const Envelope& e) {
  return e.message.get<Tracked>().seq;
}

class MailboxLifetime : public ::testing::Test {
 protected:
  void SetUp() override { Tracked::live = 0; }
  void TearDown() override {
    EXPECT_EQ(Tracked::live.load(), 0) << "a payload leaked or died twice";
  }
};

// Observes each drop and checks the shed payload is still alive while observed.
struct DropProbe {
  std::vector<int> seqs;
  std::vector<long> live_while_observed;
  DropObserver observer() {
    return [this](DropReason, const Envelope& e) {
      seqs.push_back(seq_of(e));
      live_while_observed.push_back(Tracked::live.load());
    };
  }
};

// Under drop-head and drop-new, each shed payload is alive for its observers and gone right after.
TEST_F(MailboxLifetime, BoundedShedEnvelopesAreDestroyedExactlyOnce) {
  for (auto policy : {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew}) {
    DropProbe probe;
    {
      BoundedMailbox box(
          BoundedMailboxOptions::create().with_capacity(3).with_overflow(policy).with_on_drop(
              probe.observer()));
      for (int i = 0; i < 10; ++i) {
        box.enqueue(tracked(0, i));
        EXPECT_EQ(Tracked::live.load(), std::min(i + 1, 3)) << to_string(policy) << " after " << i;
      }
      EXPECT_EQ(probe.live_while_observed, std::vector<long>(7, 4)) << to_string(policy);
      EXPECT_EQ(box.dropped_count(), 7u);
      EXPECT_EQ(box.size(), 3u);
    }  // the three still queued die with the mailbox
    EXPECT_EQ(Tracked::live.load(), 0) << to_string(policy);
  }
}

// Shedding on the unstash path destroys each shed payload once; a rejected batch is only the
// caller's.
TEST_F(MailboxLifetime, BoundedPrependShedsAndRejectsWithoutLeaks) {
  for (auto policy :
       {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    DropProbe probe;
    BoundedMailbox box(
        BoundedMailboxOptions::create().with_capacity(3).with_overflow(policy).with_on_drop(
            probe.observer()));
    box.enqueue(tracked(0, 100));
    box.enqueue(tracked(0, 101));
    std::vector<Envelope> stash;
    for (int i = 0; i < 4; ++i) stash.push_back(tracked(1, i));
    EXPECT_EQ(Tracked::live.load(), 6);
    if (policy == OverflowPolicy::kReject) {
      EXPECT_THROW(box.prepend(stash), MailboxFullError);  // a copy: the stash stays ours
      EXPECT_EQ(Tracked::live.load(), 6);
      EXPECT_EQ(box.size(), 2u);
    } else {
      box.prepend(std::move(stash));
      EXPECT_EQ(box.size(), 3u);
      EXPECT_EQ(Tracked::live.load(), 3);  // exactly the queued ones survive
      EXPECT_EQ(box.dropped_count(), 3u);
    }
    stash.clear();
    box.drain();
    EXPECT_EQ(Tracked::live.load(), 0) << to_string(policy);
  }
}

// The priority mailbox destroys what it sheds (both reasons) once and keeps the rest alive.
TEST_F(MailboxLifetime, PriorityShedEnvelopesAreDestroyedExactlyOnce) {
  DropProbe probe;
  std::vector<DropReason> reasons;
  PriorityMailbox box(
      PriorityMailboxOptions::create()
          .with_priority_for([](const Envelope& e) { return double(seq_of(e) % 3); })
          .with_capacity(2)
          .with_overflow(OverflowPolicy::kDropLowestPriority)
          .with_on_drop(probe.observer()));
  box.observe_drops([&](DropReason reason, const Envelope&) { reasons.push_back(reason); });
  for (int seq : {2, 1, 0, 5, 3}) box.enqueue(tracked(0, seq));  // ranks 2, 1, 0, 2, 0
  EXPECT_EQ(probe.seqs, (std::vector<int>{2, 5, 1}));
  EXPECT_EQ(reasons, (std::vector<DropReason>{DropReason::kDropHead, DropReason::kDropNew,
                                              DropReason::kDropHead}));
  EXPECT_EQ(probe.live_while_observed, (std::vector<long>{3, 3, 3}));
  EXPECT_EQ(Tracked::live.load(), 2);
  EXPECT_EQ(seq_of(*box.dequeue()), 0);
  EXPECT_EQ(seq_of(*box.dequeue()), 3);
  EXPECT_EQ(Tracked::live.load(), 0);
}

// A mailbox destroyed with messages still queued (user, signal, system) releases them all.
TEST_F(MailboxLifetime, DestroyingAMailboxReleasesEverythingQueued) {
  {
    ActorMailbox box(std::make_shared<PriorityMailbox>(
        PriorityMailboxOptions::create().with_priority_for([](const Envelope&) { return 1.0; })));
    box.enqueue(tracked(0, 1));
    box.enqueue_signal(tracked(0, 2));
    box.enqueue_system(tracked(0, 3));
    ActorMailbox bounded(
        std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create().with_capacity(1)));
    bounded.enqueue(tracked(0, 4));
    bounded.enqueue_signal(tracked(0, 5));
    bounded.enqueue_system(tracked(0, 6));
    EXPECT_EQ(Tracked::live.load(), 6);
  }
  EXPECT_EQ(Tracked::live.load(), 0);
}

// ---- conservation under concurrent producers ----

constexpr int kProducers = 4;
constexpr int kPerProducer = 10000;
constexpr int kSignalEvery = 1000;  // each producer also sends a death notification now and then

struct Tally {
  std::atomic<long> delivered{0}, dropped_seen{0}, rejected{0}, signals{0};
  std::vector<std::vector<int>> order = std::vector<std::vector<int>>(kProducers);
};

// Runs 4 producers and 1 consumer against `box` and returns what each side counted.
void run_load(MessageQueue& box, Tally& tally) {
  box.observe_drops([&](DropReason, const Envelope&) { ++tally.dropped_seen; });
  std::atomic<int> finished{0};
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p) {
    producers.emplace_back([&, p] {
      for (int i = 0; i < kPerProducer; ++i) {
        if (i % kSignalEvery == 0)
          box.enqueue_signal(Envelope{Message(std::string("signal")), {}, {}, 0});
        try {
          box.enqueue(tracked(p, i));
        } catch (const MailboxFullError&) {
          ++tally.rejected;
        }
      }
      ++finished;
    });
  }
  std::thread consumer([&] {
    for (;;) {
      const bool producers_done = finished.load() == kProducers;
      auto envelope = box.dequeue();
      if (!envelope) {
        if (producers_done) return;
        std::this_thread::yield();
        continue;
      }
      if (const Tracked* item = envelope->message.get_if<Tracked>()) {
        ++tally.delivered;
        tally.order[item->producer].push_back(item->seq);
      } else {
        ++tally.signals;
      }
    }
  });
  for (auto& producer : producers) producer.join();
  consumer.join();
}

void expect_conserved(MessageQueue& box, const Tally& tally) {
  const long sent = long{kProducers} * kPerProducer;
  EXPECT_EQ(tally.delivered + tally.dropped_seen + tally.rejected, sent);
  EXPECT_EQ(static_cast<long>(box.dropped_count()), tally.dropped_seen.load());
  EXPECT_EQ(tally.signals.load(), long{kProducers} * (kPerProducer / kSignalEvery));
  EXPECT_EQ(box.size(), 0u);
}

bool ascending(const std::vector<int>& seqs) {
  for (std::size_t i = 1; i < seqs.size(); ++i)
    if (seqs[i - 1] >= seqs[i]) return false;
  return true;
}

// Bounded drop-head / drop-new / reject: delivered + dropped + rejected == sent, per-sender order
// kept, signals all delivered.
TEST_F(MailboxLifetime, BoundedMailboxConservesEveryMessageUnderConcurrentProducers) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "needs threads";
#endif
  for (auto policy :
       {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    BoundedMailbox box(BoundedMailboxOptions::create().with_capacity(16).with_overflow(policy));
    Tally tally;
    run_load(box, tally);
    expect_conserved(box, tally);
    if (policy == OverflowPolicy::kReject) {
      EXPECT_EQ(box.dropped_count(), 0u);
    } else {
      EXPECT_EQ(tally.rejected.load(), 0);
    }
    for (const auto& seqs : tally.order) EXPECT_TRUE(ascending(seqs)) << to_string(policy);
  }
}

// Priority drop-lowest-priority / drop-new / reject: delivered + dropped + rejected == sent,
// signals never shed.
TEST_F(MailboxLifetime, PriorityMailboxConservesEveryMessageUnderConcurrentProducers) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "needs threads";
#endif
  for (auto policy :
       {OverflowPolicy::kDropLowestPriority, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    PriorityMailbox box(PriorityMailboxOptions::create()
                            .with_priority_for([](const Envelope& e) {
                              const Tracked* item = e.message.get_if<Tracked>();
                              return item ? double(item->seq % 10) : 20.0;  // signals rank last
                            })
                            .with_capacity(16)
                            .with_overflow(policy)
                            .with_dead_letter_drops(true));
    Tally tally;
    run_load(box, tally);
    expect_conserved(box, tally);
  }
}

}  // namespace
}  // namespace mailroom
