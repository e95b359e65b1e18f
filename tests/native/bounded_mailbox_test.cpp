#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"

namespace mailroom {
namespace {

Envelope env(std::string text) {
  return Envelope{Message(std::move(text)), {}, {}, 0};
}

std::vector<Envelope> batch(std::initializer_list<const char*> texts) {
  std::vector<Envelope> out;
  for (const char* text : texts) out.push_back(env(text));
  return out;
}

std::vector<std::string> drain_texts(MessageQueue& box) {
  std::vector<std::string> out;
  for (const Envelope& e : box.drain()) out.push_back(e.message.get<std::string>());
  return out;
}

// Every drop an observer saw, as "reason:text".
struct DropLog {
  std::vector<std::string> seen;
  DropObserver observer() {
    return [this](DropReason reason, const Envelope& e) {
      seen.push_back(std::string(to_string(reason)) + ":" + e.message.get<std::string>());
    };
  }
};

BoundedMailbox make(double capacity, OverflowPolicy policy, DropLog* log = nullptr) {
  auto options = BoundedMailboxOptions::create().with_capacity(capacity).with_overflow(policy);
  if (log) options.with_on_drop(log->observer());
  return BoundedMailbox(std::move(options));
}

void send(MessageQueue& box, std::initializer_list<const char*> texts) {
  for (const char* text : texts) box.enqueue(env(text));
}

using Strings = std::vector<std::string>;

// Seed example: capacity 3, drop-head over a..e keeps c,d,e; a and b were shed as drop-head.
TEST(BoundedMailbox, DropHeadDiscardsOldestUserMessage) {
  DropLog log;
  BoundedMailbox box = make(3, OverflowPolicy::kDropHead, &log);
  send(box, {"a", "b", "c", "d", "e"});
  EXPECT_EQ(box.dropped_count(), 2u);
  EXPECT_EQ(log.seen, (Strings{"drop-head:a", "drop-head:b"}));
  EXPECT_EQ(drain_texts(box), (Strings{"c", "d", "e"}));
}

// drop-new keeps what was accepted first and discards the arrivals.
TEST(BoundedMailbox, DropNewDiscardsTheArrival) {
  DropLog log;
  BoundedMailbox box = make(3, OverflowPolicy::kDropNew, &log);
  send(box, {"a", "b", "c", "d", "e"});
  EXPECT_EQ(box.dropped_count(), 2u);
  EXPECT_EQ(log.seen, (Strings{"drop-new:d", "drop-new:e"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "c"}));
}

// reject throws MailboxFullError at the 4th message, naming capacity and
// policy (no path: a mailbox knows no owner; the actor adds it), and counts
// nothing as dropped.
TEST(BoundedMailbox, RejectThrowsAtTheCallSiteAndCountsNothing) {
  DropLog log;
  BoundedMailbox box = make(3, OverflowPolicy::kReject, &log);
  send(box, {"a", "b", "c"});
  try {
    box.enqueue(env("d"));
    FAIL() << "expected MailboxFullError";
  } catch (const MailboxFullError& error) {
    EXPECT_EQ(error.path(), "");
    EXPECT_EQ(error.capacity(), 3u);
    const std::string what = error.what();
    EXPECT_NE(what.find("capacity 3"), std::string::npos) << what;
    EXPECT_NE(what.find("reject"), std::string::npos) << what;
  }
  EXPECT_EQ(box.dropped_count(), 0u);
  EXPECT_TRUE(log.seen.empty());
  EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "c"}));
}

// Built directly without a policy, a BoundedMailbox rejects.
TEST(BoundedMailbox, DefaultsToRejectWhenBuiltDirectly) {
  BoundedMailbox box(BoundedMailboxOptions::create().with_capacity(1));
  EXPECT_EQ(box.overflow(), OverflowPolicy::kReject);
  box.enqueue(env("a"));
  EXPECT_THROW(box.enqueue(env("b")), MailboxFullError);
}

// A death notification is admitted past the bound under every policy and is not a drop.
TEST(BoundedMailbox, SignalsBypassTheBoundUnderEveryPolicy) {
  for (auto policy :
       {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    BoundedMailbox box = make(2, policy);
    send(box, {"a", "b"});
    box.enqueue_signal(env("terminated"));
    EXPECT_EQ(box.dropped_count(), 0u) << to_string(policy);
    EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "terminated"})) << to_string(policy);
  }
}

// drop-head evicts the oldest droppable message, stepping over a queued signal.
TEST(BoundedMailbox, DropHeadNeverEvictsASignal) {
  DropLog log;
  BoundedMailbox box = make(2, OverflowPolicy::kDropHead, &log);
  box.enqueue_signal(env("terminated"));
  send(box, {"a", "b", "c"});
  EXPECT_EQ(log.seen, (Strings{"drop-head:a", "drop-head:b"}));
  EXPECT_EQ(drain_texts(box), (Strings{"terminated", "c"}));
}

// With only signals queued there is nothing to evict: the arrival is admitted and nothing counted.
TEST(BoundedMailbox, DropHeadAdmitsTheArrivalWhenOnlySignalsAreQueued) {
  BoundedMailbox box = make(1, OverflowPolicy::kDropHead);
  box.enqueue_signal(env("terminated"));
  box.enqueue(env("a"));
  EXPECT_EQ(box.dropped_count(), 0u);
  EXPECT_EQ(drain_texts(box), (Strings{"terminated", "a"}));
}

// An unstash that fits goes to the front in its original order, under every policy.
TEST(BoundedMailbox, PrependUserThatFitsKeepsOrderAtTheFront) {
  for (auto policy :
       {OverflowPolicy::kDropHead, OverflowPolicy::kDropNew, OverflowPolicy::kReject}) {
    BoundedMailbox box = make(4, policy);
    send(box, {"x", "y"});
    box.prepend(batch({"a", "b"}));
    EXPECT_EQ(box.dropped_count(), 0u);
    EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "x", "y"})) << to_string(policy);
  }
}

// drop-head makes room at the head by evicting the newest queued messages.
TEST(BoundedMailbox, PrependUserUnderDropHeadEvictsTheNewestQueued) {
  DropLog log;
  BoundedMailbox box = make(3, OverflowPolicy::kDropHead, &log);
  send(box, {"x", "y", "z"});
  box.prepend(batch({"a", "b"}));
  EXPECT_EQ(log.seen, (Strings{"drop-head:z", "drop-head:y"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "x"}));
}

// When nothing queued may go, a batch larger than the bound loses its tail as drop-new.
TEST(BoundedMailbox, PrependUserUnderDropHeadDiscardsTheTailOfAnOversizedBatch) {
  DropLog log;
  BoundedMailbox box = make(2, OverflowPolicy::kDropHead, &log);
  box.prepend(batch({"a", "b", "c", "d"}));
  EXPECT_EQ(box.dropped_count(), 2u);
  EXPECT_EQ(log.seen, (Strings{"drop-new:c", "drop-new:d"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a", "b"}));
}

// drop-new keeps the queue and the head of the batch, discarding the batch's overflow.
TEST(BoundedMailbox, PrependUserUnderDropNewDiscardsTheBatchOverflow) {
  DropLog log;
  BoundedMailbox box = make(3, OverflowPolicy::kDropNew, &log);
  send(box, {"x"});
  box.prepend(batch({"a", "b", "c"}));
  EXPECT_EQ(log.seen, (Strings{"drop-new:c"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a", "b", "x"}));
}

// reject is all-or-nothing: a batch that does not fit throws and inserts nothing.
TEST(BoundedMailbox, PrependUserUnderRejectIsAllOrNothing) {
  BoundedMailbox box = make(3, OverflowPolicy::kReject);
  send(box, {"x", "y"});
  EXPECT_THROW(box.prepend(batch({"a", "b"})), MailboxFullError);
  EXPECT_EQ(box.size(), 2u);
  EXPECT_EQ(box.dropped_count(), 0u);
  box.prepend(batch({"a"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a", "x", "y"}));
}

// observe_drops is additive: the construction hook first, then each observer in order.
TEST(BoundedMailbox, ObserveDropsIsAdditive) {
  std::vector<std::string> calls;
  BoundedMailbox box(
      BoundedMailboxOptions::create()
          .with_capacity(1)
          .with_overflow("drop-new")
          .with_on_drop([&](DropReason, const Envelope&) { calls.push_back("on_drop"); }));
  box.observe_drops([&](DropReason, const Envelope&) { calls.push_back("first"); });
  box.observe_drops([&](DropReason, const Envelope&) { calls.push_back("second"); });
  send(box, {"a", "b"});
  EXPECT_EQ(calls, (Strings{"on_drop", "first", "second"}));
  EXPECT_TRUE(box.reports_drops());
}

// A throwing observer does not hide the drop from the others; its error reaches the caller after.
TEST(BoundedMailbox, ThrowingObserverDoesNotHideTheDropFromOthers) {
  DropLog log;
  BoundedMailbox box = make(1, OverflowPolicy::kDropNew);
  box.observe_drops([](DropReason, const Envelope&) { throw std::runtime_error("observer bug"); });
  box.observe_drops(log.observer());
  box.enqueue(env("a"));
  EXPECT_THROW(box.enqueue(env("b")), std::runtime_error);
  EXPECT_EQ(box.dropped_count(), 1u);
  EXPECT_EQ(log.seen, (Strings{"drop-new:b"}));
  EXPECT_EQ(drain_texts(box), (Strings{"a"}));
}

// Observers run after the lock is released, so they may call back into the mailbox.
TEST(BoundedMailbox, ObserversMayUseTheMailbox) {
  BoundedMailbox box = make(2, OverflowPolicy::kDropHead);
  std::vector<std::size_t> sizes;
  box.observe_drops([&](DropReason, const Envelope&) { sizes.push_back(box.size()); });
  send(box, {"a", "b", "c"});
  EXPECT_EQ(sizes, (std::vector<std::size_t>{2}));
}

// describe() reports kind, capacity, policy and the dead-letter flag fixed at construction.
TEST(BoundedMailbox, DescribesItselfAsBounded) {
  BoundedMailbox box(BoundedMailboxOptions::create()
                         .with_capacity(7)
                         .with_overflow(OverflowPolicy::kDropHead)
                         .with_dead_letter_drops(true));
  const MailboxDescription d = box.describe();
  EXPECT_EQ(d.kind, "bounded");
  EXPECT_EQ(d.capacity, std::optional<std::size_t>(7));
  EXPECT_EQ(d.overflow, std::optional<OverflowPolicy>(OverflowPolicy::kDropHead));
  EXPECT_TRUE(d.dead_letter_drops);
  EXPECT_TRUE(box.dead_letter_drops());
  EXPECT_FALSE(make(1, OverflowPolicy::kDropHead).dead_letter_drops());
}

}  // namespace
}  // namespace mailroom
