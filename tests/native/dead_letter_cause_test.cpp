// Why a letter died: each source records its cause (and a drop its policy) on
// the letter and on the queue's entry, a letter that comes back from a replay
// carries its latest cause, and the persistent store journals both.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/dead_letter_cause.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::LambdaActor;
using Strings = std::vector<std::string>;

struct CauseSystem {
  explicit CauseSystem(ActorSystemOptions options, std::string name = "causes")
      : dispatcher(std::make_shared<ManualDispatcher>()) {
    options.with_dispatcher(dispatcher).with_log_sink([](const LogEvent&) {});
    system = ActorSystem::create(std::move(name), std::move(options));
  }
  std::size_t run() { return dispatcher->run_until_idle(); }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }

  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
};

ActorSystemOptions memory_store() {
  return ActorSystemOptions::create().with_dead_letters(
      DeadLetterQueueOptions::create().with_store("memory").with_max_replays(3));
}

// "message cause[/policy]", oldest first.
Strings causes(const std::vector<DeadLetterEntry>& entries) {
  Strings out;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    std::string line = testing::text(std::get<DeadLetterEntry::Captured>(it->payload).message) +
                       " " + std::string(to_string(it->cause));
    if (it->drop_reason) line += "/" + std::string(to_string(*it->drop_reason));
    out.push_back(line);
  }
  return out;
}

ActorFactory idle() {
  return testing::lambda_actor([](LambdaActor&, const Message&) {});
}

ActorOptions bounded(OverflowPolicy policy) {
  return ActorOptions::create().with_mailbox([policy] {
    return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                .with_capacity(1.0)
                                                .with_overflow(policy)
                                                .with_dead_letter_drops(true));
  });
}

// Every cause has one string and reads back from it; anything else is no cause.
TEST(DeadLetterCause, StringsRoundTrip) {
  for (auto cause :
       {DeadLetterCause::kStopped, DeadLetterCause::kNoRecipient, DeadLetterCause::kUnhandled,
        DeadLetterCause::kDropped, DeadLetterCause::kRestarted, DeadLetterCause::kPublished,
        DeadLetterCause::kUnknown}) {
    EXPECT_EQ(dead_letter_cause_from_string(to_string(cause)), cause);
  }
  EXPECT_EQ(to_string(DeadLetterCause::kNoRecipient), "no-recipient");
  EXPECT_EQ(dead_letter_cause_from_string("Stopped"), std::nullopt);
}

// Told to a stopped actor, drained from its mailbox at stop, or sent to a path
// nobody lives at: "stopped", "stopped", "no-recipient".
TEST(DeadLetterCause, StoppedActorAndNobodyAtThePathAreNamedApart) {
  CauseSystem t(memory_store());
  auto a = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                             if (testing::text(m) == "halt") self.ctx().stop(self.me());
                           }),
                           "a");
  t.run();
  a.tell("halt"s);
  t.dispatcher->step();
  a.tell("queued"s);  // still in the mailbox when the stop completes
  t.run();
  a.tell("late"s);
  t.system->actor_selection("/user/nobody").tell("lost"s);
  EXPECT_EQ(causes(t.queue().list()),
            (Strings{"queued stopped", "late stopped", "lost no-recipient"}));
}

// A message the behaviour declares unhandled: "unhandled".
TEST(DeadLetterCause, UnhandledIsNamed) {
  CauseSystem t(memory_store());
  auto a = t.system->spawn(
      testing::lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }), "a");
  a.tell("what"s);
  t.run();
  EXPECT_EQ(causes(t.queue().list()), (Strings{"what unhandled"}));
}

// A bounded mailbox with deadLetterDrops: "dropped" with the policy that took effect.
TEST(DeadLetterCause, DropsNameThePolicy) {
  CauseSystem t(memory_store());
  auto head = t.system->spawn(idle(), "head", bounded(OverflowPolicy::kDropHead));
  auto fresh = t.system->spawn(idle(), "fresh", bounded(OverflowPolicy::kDropNew));
  t.run();
  head.tell("h1"s);
  head.tell("h2"s);
  fresh.tell("n1"s);
  fresh.tell("n2"s);
  EXPECT_EQ(causes(t.queue().list()), (Strings{"h1 dropped/drop-head", "n2 dropped/drop-new"}));
}

// The stash of an instance replaced by a restart: "restarted".
TEST(DeadLetterCause, StashLostToARestartIsNamed) {
  CauseSystem t(memory_store());
  auto a = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                             if (testing::text(m) == "keep") self.ctx().stash();
                             if (testing::text(m) == "boom") throw std::runtime_error("boom");
                           }),
                           "a");
  a.tell("keep"s);
  a.tell("boom"s);
  t.run();
  EXPECT_EQ(causes(t.queue().list()), (Strings{"keep restarted"}));
}

// Published by hand: "published", no policy.
TEST(DeadLetterCause, PublishedByHandIsNamed) {
  CauseSystem t(memory_store());
  DeadLetter letter;
  letter.message = Message("manual"s);
  letter.recipient_path = "/user/x";
  t.system->publish_dead_letter(letter);
  EXPECT_EQ(causes(t.queue().list()), (Strings{"manual published"}));
}

// A replayed letter that dies again is the same entry with the new cause.
TEST(DeadLetterCause, ReplayedLetterComesBackWithItsLatestCause) {
  CauseSystem t(memory_store());
  t.system->actor_selection("/user/later").tell("order"s);
  const auto id = t.queue().list().at(0).id;
  t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); }),
                  "later");
  t.run();
  EXPECT_EQ(t.queue().replay(id).outcome, ReplayOutcome::kReplayed);
  t.run();
  auto entries = t.queue().list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].id, id);
  EXPECT_EQ(entries[0].replay_count, 1u);
  EXPECT_EQ(entries[0].cause, DeadLetterCause::kUnhandled);
}

// The persistent store journals cause and policy; a restart reads them back.
TEST(DeadLetterCause, PersistentStoreKeepsCauseAndPolicyAcrossARestart) {
  auto journal = std::make_shared<InMemoryJournal>();
  auto options = [&] {
    return ActorSystemOptions::create()
        .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
        .with_journal(journal);
  };
  {
    CauseSystem t(options());
    auto head = t.system->spawn(idle(), "head", bounded(OverflowPolicy::kDropHead));
    t.run();
    head.tell("h1"s);
    head.tell("h2"s);
    t.system->actor_selection("/user/nobody").tell("lost"s);
    t.system->terminate();
    t.system->await_termination();
  }
  CauseSystem again(options());
  EXPECT_EQ(causes(again.queue().list()), (Strings{"h1 dropped/drop-head", "lost no-recipient"}));
}

// A record written before causes were journaled reads back as "unknown", not as an error.
TEST(DeadLetterCause, OlderRecordWithoutACauseReadsBackAsUnknown) {
  auto journal = std::make_shared<InMemoryJournal>();
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  journal->append("dead-letters-causes", R"({"k":"captured","id":1,"ts":)" +
                                             std::to_string(now_ms) +
                                             R"(,"r":"/user/a","s":null,"n":0,)"
                                             R"("p":{"d":{"c":"Order","w":"no codec"}}})");
  CauseSystem t(ActorSystemOptions::create()
                    .with_dead_letters(DeadLetterQueueOptions::create()
                                           .with_store("persistent")
                                           .with_persistence_id("dead-letters-causes"))
                    .with_journal(journal));
  auto entries = t.queue().list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].cause, DeadLetterCause::kUnknown);
  EXPECT_FALSE(entries[0].drop_reason.has_value());
  EXPECT_EQ(t.queue().stats().restored, 1u);
}

}  // namespace
}  // namespace mailroom
