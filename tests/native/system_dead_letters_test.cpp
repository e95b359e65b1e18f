// The dead-letter queue as the system wires it: every source of dead letters
// reaches system.dead_letter_queue(), replay goes through the live tree, the
// queue is configured by HOCON and options, and a persistent store survives a
// restart of the system.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/in_memory_journal.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/system_messages.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using Strings = std::vector<std::string>;

// A C++ type with no payload codec: kept live in memory, degraded in a journal.
struct Opaque {
  int value = 0;
};

// A system on a ManualDispatcher whose own queue is the capture sink (no
// with_dead_letter_sink), a settable clock and a recorded log.
struct QueueSystem {
  explicit QueueSystem(ActorSystemOptions options = {}, std::string name = "orders")
      : dispatcher(std::make_shared<ManualDispatcher>()),
        clock(std::make_shared<std::atomic<std::int64_t>>(1000)),
        log(std::make_shared<EventLog>()) {
    auto c = clock;
    auto l = log;
    options.with_dispatcher(dispatcher)
        .with_clock([c] { return c->load(); })
        .with_log_sink([l](const LogEvent& e) { l->add(e.message); });
    system = ActorSystem::create(std::move(name), std::move(options));
  }
  std::size_t run() { return dispatcher->run_until_idle(); }
  DeadLetterQueue& queue() { return system->dead_letter_queue(); }

  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<std::atomic<std::int64_t>> clock;
  std::shared_ptr<EventLog> log;
  std::shared_ptr<ActorSystem> system;
};

ActorSystemOptions memory_store() {
  return ActorSystemOptions::create().with_dead_letters(
      DeadLetterQueueOptions::create().with_store("memory"));
}

// "message recipient sender", oldest first (list() is newest first).
Strings describe(const std::vector<DeadLetterEntry>& entries) {
  Strings out;
  for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
    std::string payload =
        it->is_degraded() ? "degraded"
                          : testing::text(std::get<DeadLetterEntry::Captured>(it->payload).message);
    out.push_back(payload + " " + it->recipient_path + " " + it->sender_path.value_or("-"));
  }
  return out;
}

ActorFactory idle() {
  return testing::lambda_actor([](LambdaActor&, const Message&) {});
}

// Declares every message unhandled.
ActorFactory refuser() {
  return testing::lambda_actor([](LambdaActor& self, const Message& m) { self.drop(m); });
}

// Logs "<text> from <sender path>".
ActorFactory sender_logger(std::shared_ptr<EventLog> log) {
  return testing::lambda_actor([log](LambdaActor& self, const Message& m) {
    log->add(testing::text(m) + " from " + (self.from() ? self.from().local_path() : "-"));
  });
}

ActorOptions bounded(std::size_t capacity, OverflowPolicy policy) {
  return ActorOptions::create().with_mailbox([capacity, policy] {
    return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                .with_capacity(static_cast<double>(capacity))
                                                .with_overflow(policy)
                                                .with_dead_letter_drops(true));
  });
}

// --- sources ------------------------------------------------------------------

// A tell to a stopped actor is listed with the actor as recipient and the sender's path.
TEST(SystemDeadLetters, TellToAStoppedActorReachesTheQueue) {
  QueueSystem t(memory_store());
  auto from = t.system->spawn(idle(), "from");
  auto a = t.system->spawn(idle(), "a");
  a.stop();
  t.run();
  a.tell("late"s, from);
  EXPECT_EQ(describe(t.queue().list()), (Strings{"late /user/a /user/from"}));
}

// Stopping dead-letters the stash, then the queued mailbox, each in arrival order.
TEST(SystemDeadLetters, StashThenMailboxAreListedInOrderAtStop) {
  QueueSystem t(memory_store());
  auto a = t.system->spawn(testing::lambda_actor([](LambdaActor& self, const Message& m) {
                             if (testing::text(m).rfind("s", 0) == 0) self.ctx().stash();
                             if (testing::text(m) == "halt") self.ctx().stop(self.me());
                           }),
                           "a");
  a.tell("s1"s);
  a.tell("s2"s);
  t.run();
  a.tell("halt"s);
  t.dispatcher->step();
  a.tell("q1"s);
  a.tell("q2"s);
  t.run();
  EXPECT_EQ(describe(t.queue().list()),
            (Strings{"s1 /user/a -", "s2 /user/a -", "q1 /user/a -", "q2 /user/a -"}));
}

// A selection that resolves to nothing is listed under the selected path.
TEST(SystemDeadLetters, SelectionToNothingIsListedUnderThePath) {
  QueueSystem t(memory_store());
  auto from = t.system->spawn(idle(), "from");
  t.system->actor_selection("/user/nobody").tell("hello"s, from);
  EXPECT_EQ(describe(t.queue().list()), (Strings{"hello /user/nobody /user/from"}));
}

// A message the behaviour declares unhandled is listed with the current sender.
TEST(SystemDeadLetters, UnhandledMessageIsListed) {
  QueueSystem t(memory_store());
  auto from = t.system->spawn(idle(), "from");
  auto a = t.system->spawn(refuser(), "a");
  a.tell("what"s, from);
  t.run();
  EXPECT_EQ(describe(t.queue().list()), (Strings{"what /user/a /user/from"}));
}

// A watcher throwing on its Terminated: the notification is listed for the watcher.
TEST(SystemDeadLetters, WatcherThrowingOnTerminatedIsListed) {
  QueueSystem t(memory_store());
  auto target = t.system->spawn(idle(), "target");
  auto first = std::make_shared<bool>(true);
  t.system->spawn(testing::lambda_actor(
                      [](LambdaActor&, const Message& m) {
                        if (m.is<Terminated>()) throw std::runtime_error("cannot cope");
                      },
                      [target, first](LambdaActor& self) {
                        if (*first) self.ctx().watch(target);
                        *first = false;
                      }),
                  "watcher");
  t.run();
  target.stop();
  t.run();
  auto entries = t.queue().list();
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].recipient_path, "/user/watcher");
  EXPECT_TRUE(std::get<DeadLetterEntry::Captured>(entries[0].payload).message.is<Terminated>());
}

// Drop-head with deadLetterDrops: the evicted (oldest) message is the letter.
TEST(SystemDeadLetters, DropHeadListsTheEvictedMessage) {
  QueueSystem t(memory_store());
  auto from = t.system->spawn(idle(), "from");
  auto a = t.system->spawn(idle(), "a", bounded(2, OverflowPolicy::kDropHead));
  t.run();
  for (auto m : {"m1", "m2", "m3"}) a.tell(std::string(m), from);
  EXPECT_EQ(describe(t.queue().list()), (Strings{"m1 /user/a /user/from"}));
}

// Drop-new with deadLetterDrops: the arrival is the letter.
TEST(SystemDeadLetters, DropNewListsTheArrival) {
  QueueSystem t(memory_store());
  auto a = t.system->spawn(idle(), "a", bounded(2, OverflowPolicy::kDropNew));
  t.run();
  for (auto m : {"m1", "m2", "m3"}) a.tell(std::string(m));
  EXPECT_EQ(describe(t.queue().list()), (Strings{"m3 /user/a -"}));
}

// A full priority mailbox dead-letters the least important message.
TEST(SystemDeadLetters, PriorityMailboxListsTheLowestPriorityMessage) {
  QueueSystem t(memory_store());
  auto a = t.system->spawn(idle(), "a", ActorOptions::create().with_mailbox([] {
    return std::make_shared<PriorityMailbox>(PriorityMailboxOptions::create()
                                                 .with_priority_for([](const Envelope& e) {
                                                   return static_cast<double>(
                                                       testing::text(e.message)[1] - '0');
                                                 })
                                                 .with_capacity(2)
                                                 .with_overflow(OverflowPolicy::kDropLowestPriority)
                                                 .with_dead_letter_drops(true));
  }));
  t.run();
  for (auto m : {"p5", "p1", "p3"}) a.tell(std::string(m));
  EXPECT_EQ(describe(t.queue().list()), (Strings{"p5 /user/a -"}));
}

// Reject throws at the tell and makes no letter.
TEST(SystemDeadLetters, RejectMakesNoLetter) {
  QueueSystem t(memory_store());
  auto a = t.system->spawn(idle(), "a", bounded(1, OverflowPolicy::kReject));
  t.run();
  a.tell("m1"s);
  EXPECT_THROW(a.tell("m2"s), MailboxFullError);
  EXPECT_TRUE(t.queue().list().empty());
}

// --- replay -------------------------------------------------------------------

// An actor respawned under the same path gets the replayed message with the recorded sender.
TEST(SystemDeadLetters, ReplayReachesTheRespawnedActorWithTheRecordedSender) {
  QueueSystem t(memory_store());
  auto from = t.system->spawn(idle(), "from");
  auto a = t.system->spawn(idle(), "a");
  a.stop();
  t.run();
  a.tell("order-1"s, from);
  const auto id = t.queue().list().at(0).id;
  auto log = std::make_shared<EventLog>();
  t.system->spawn(sender_logger(log), "a");
  auto result = t.queue().replay(id);
  EXPECT_EQ(result.outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(result.recipient_path, "/user/a");
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"order-1 from /user/from"}));
  EXPECT_TRUE(t.queue().list().empty());
}

// Replay to an alternate path delivers there; the recorded path is not resolved.
TEST(SystemDeadLetters, ReplayRedirectsToAnotherPath) {
  QueueSystem t(memory_store());
  t.system->actor_selection("/user/gone").tell("order-2"s);
  auto log = std::make_shared<EventLog>();
  t.system->spawn(sender_logger(log), "fallback");
  const auto id = t.queue().list().at(0).id;
  auto result = t.queue().replay(id, "/user/fallback"s);
  EXPECT_EQ(result.outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(result.recipient_path, "/user/fallback");
  t.run();
  EXPECT_EQ(log->entries(), (Strings{"order-2 from -"}));
  // Neither an unknown path nor a guardian is a destination.
  t.system->actor_selection("/user/gone").tell("order-3"s);
  const auto id3 = t.queue().list().at(0).id;
  EXPECT_EQ(t.queue().replay(id3, "/user/missing"s).outcome, ReplayOutcome::kUnresolvedRecipient);
  EXPECT_EQ(t.queue().replay(id3, "/"s).outcome, ReplayOutcome::kUnresolvedRecipient);
  EXPECT_EQ(t.queue().replay(id3, "/user"s).outcome, ReplayOutcome::kUnresolvedRecipient);
  EXPECT_EQ(t.queue().list().size(), 1u);
}

// A poison message comes back as the same entry each time and is quarantined after max-replays.
TEST(SystemDeadLetters, PoisonMessageReturnsAsTheSameEntryThenQuarantines) {
  QueueSystem t(ActorSystemOptions::create().with_dead_letters(
      DeadLetterQueueOptions::create().with_store("memory").with_max_replays(2)));
  auto from = t.system->spawn(idle(), "from");
  auto a = t.system->spawn(refuser(), "a");
  a.tell("poison"s, from);
  t.run();
  const auto id = t.queue().list().at(0).id;
  for (std::uint32_t round = 1; round <= 2; ++round) {
    t.clock->fetch_add(10);
    EXPECT_EQ(t.queue().replay(id).outcome, ReplayOutcome::kReplayed);
    t.run();
    auto entries = t.queue().list();
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries[0].id, id);
    EXPECT_EQ(entries[0].replay_count, round);
    EXPECT_EQ(entries[0].timestamp_ms, t.clock->load());
    EXPECT_EQ(entries[0].sender_path, "/user/from");
  }
  EXPECT_TRUE(t.queue().get(id)->quarantined);
  EXPECT_EQ(t.queue().replay(id).outcome, ReplayOutcome::kQuarantined);
  EXPECT_EQ(t.queue().replay(id, "/user/from"s).outcome, ReplayOutcome::kQuarantined);
  EXPECT_EQ(t.queue().stats().captured, 1u);
  EXPECT_EQ(t.queue().stats().returned, 2u);
}

// A full reject mailbox refuses the replay: rejected, and the entry stays.
TEST(SystemDeadLetters, ReplayIntoAFullRejectMailboxKeepsTheEntry) {
  QueueSystem t(memory_store());
  t.system->actor_selection("/user/full").tell("order-4"s);
  auto full = t.system->spawn(idle(), "full", bounded(1, OverflowPolicy::kReject));
  t.run();
  full.tell("occupant"s);
  const auto id = t.queue().list().at(0).id;
  auto result = t.queue().replay(id);
  EXPECT_EQ(result.outcome, ReplayOutcome::kRejected);
  EXPECT_EQ(result.recipient_path, "/user/full");
  ASSERT_TRUE(t.queue().get(id).has_value());
  EXPECT_EQ(t.queue().get(id)->replay_count, 0u);
}

// --- configuration ------------------------------------------------------------

// The HOCON block configures the system's queue.
TEST(SystemDeadLetters, HoconBlockConfiguresTheSystemQueue) {
  QueueSystem t(ActorSystemOptions::create().with_config(R"(
    mailroom.dead-letters {
      store = "memory"   # keep them
      max-entries = 2
      retention = 30s
      max-replays: 5
    })"));
  const auto& s = t.queue().settings();
  EXPECT_EQ(s.store, DeadLetterStore::kMemory);
  EXPECT_EQ(s.max_entries, 2u);
  EXPECT_EQ(s.retention_ms, 30000);
  EXPECT_EQ(s.max_replays, 5u);
  EXPECT_EQ(s.persistence_id, "mailroom-dead-letters-orders");
  for (auto m : {"a", "b", "c"}) t.system->actor_selection("/user/x").tell(std::string(m));
  EXPECT_EQ(describe(t.queue().list()), (Strings{"b /user/x -", "c /user/x -"}));
}

// Per field: explicit options beat HOCON, HOCON beats defaults; an unset field never shadows.
TEST(SystemDeadLetters, ExplicitOptionsWinPerField) {
  QueueSystem t(
      ActorSystemOptions::create()
          .with_config("mailroom.dead-letters { store = memory, max-entries = 2, max-replays = 5 }")
          .with_dead_letters(DeadLetterQueueOptions::create().with_max_entries(7)));
  const auto& s = t.queue().settings();
  EXPECT_EQ(s.store, DeadLetterStore::kMemory);
  EXPECT_EQ(s.max_entries, 7u);
  EXPECT_EQ(s.max_replays, 5u);
  EXPECT_EQ(s.retention_ms, DeadLetterQueueSettings::kDefaultRetentionMs);
}

// Malformed HOCON fails create() with the line and column.
TEST(SystemDeadLetters, MalformedHoconIsAConfigErrorFromCreate) {
  try {
    ActorSystem::create("x", ActorSystemOptions::create()
                                 .with_dispatcher(std::make_shared<ManualDispatcher>())
                                 .with_config("mailroom.dead-letters {\n  store = \"memory\n}\n"));
    FAIL() << "no ConfigError";
  } catch (const ConfigError& e) {
    // The unterminated string opens on line 2, column 11.
    EXPECT_EQ(e.line(), 2) << e.what();
    EXPECT_EQ(e.column(), 11) << e.what();
  }
}

// An invalid value fails create() with OptionsError naming family, field and value.
TEST(SystemDeadLetters, InvalidValueIsAnOptionsErrorFromCreate) {
  try {
    ActorSystem::create("x", ActorSystemOptions::create()
                                 .with_dispatcher(std::make_shared<ManualDispatcher>())
                                 .with_config("mailroom.dead-letters.max-entries = 0"));
    FAIL() << "no OptionsError";
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family() + "/" + e.field() + "/" + e.value(),
              "DeadLetterQueueOptions/maxEntries/0");
  }
}

// The system's metrics expose the queue's outcome counters.
TEST(SystemDeadLetters, MetricsCountCapturedReplayedAndFailed) {
  QueueSystem t(memory_store());
  t.system->actor_selection("/user/x").tell("one"s);
  t.system->actor_selection("/user/x").tell("two"s);
  t.system->spawn(idle(), "y");
  auto entries = t.queue().list();
  EXPECT_EQ(t.queue().replay(entries[0].id, "/user/y"s).outcome, ReplayOutcome::kReplayed);
  EXPECT_EQ(t.queue().replay(entries[1].id).outcome, ReplayOutcome::kUnresolvedRecipient);
  const auto text = t.system->metrics().scrape();
  EXPECT_NE(text.find("actor_dead_letters_total{outcome=\"captured\"} 2"), std::string::npos)
      << text;
  EXPECT_NE(text.find("actor_dead_letters_total{outcome=\"replayed\"} 1"), std::string::npos);
  EXPECT_NE(text.find("actor_dead_letters_total{outcome=\"replay-failed\"} 1"), std::string::npos);
}

// --- persistence --------------------------------------------------------------

// A fresh temp directory per test, removed afterwards.
struct TempDir {
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("mailroom-sysdl-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

ActorSystemOptions persistent_in(const std::string& dir) {
  return ActorSystemOptions::create()
      .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
      .with_journal_dir(dir);
}

// A new system with the same name restores the letters and continues the ids; another name does not
// see them.
TEST(SystemDeadLetters, PersistentLettersSurviveARestartOfTheSameSystem) {
  TempDir dir;
  {
    QueueSystem t(persistent_in(dir.path.string()));
    auto from = t.system->spawn(idle(), "from");
    t.system->actor_selection("/user/a").tell("one"s, from);
    t.system->actor_selection("/user/b").tell("two"s);
    t.system->terminate();
    t.system->await_termination();
  }
  QueueSystem again(persistent_in(dir.path.string()));
  EXPECT_EQ(describe(again.queue().list()), (Strings{"one /user/a /user/from", "two /user/b -"}));
  again.system->actor_selection("/user/c").tell("three"s);
  auto entries = again.queue().list();
  EXPECT_EQ(entries[0].id, 3u);
  QueueSystem other(persistent_in(dir.path.string()), "billing");
  EXPECT_TRUE(other.queue().list().empty());
}

// 10,000 letters right before terminate() are all in the journal afterwards.
TEST(SystemDeadLetters, BurstBeforeTerminateIsAllInTheJournal) {
  auto journal = std::make_shared<InMemoryJournal>();
  auto options = [&] {
    return ActorSystemOptions::create()
        .with_dead_letters(
            DeadLetterQueueOptions::create().with_store("persistent").with_max_entries(20000))
        .with_journal(journal);
  };
  {
    QueueSystem t(options());
    for (int i = 0; i < 10000; ++i) t.system->actor_selection("/user/x").tell(std::to_string(i));
    t.system->terminate();
    t.system->await_termination();
  }
  QueueSystem again(options());
  auto entries = again.queue().list();
  ASSERT_EQ(entries.size(), 10000u);
  EXPECT_EQ(testing::text(std::get<DeadLetterEntry::Captured>(entries.back().payload).message),
            "0");
  EXPECT_EQ(testing::text(std::get<DeadLetterEntry::Captured>(entries.front().payload).message),
            "9999");
}

// Without a codec the payload is live (replayable) before the restart, degraded after.
TEST(SystemDeadLetters, PayloadWithoutCodecIsDegradedOnlyAfterRestart) {
  auto journal = std::make_shared<InMemoryJournal>();
  auto options = [&] {
    return ActorSystemOptions::create()
        .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
        .with_journal(journal);
  };
  {
    QueueSystem t(options());
    t.system->actor_selection("/user/a").tell(Opaque{7});
    t.system->actor_selection("/user/a").tell(Opaque{8});
    auto entries = t.queue().list();
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_FALSE(entries[0].is_degraded());
    EXPECT_EQ(std::get<DeadLetterEntry::Captured>(entries[0].payload).message.get<Opaque>().value,
              8);
    auto got = std::make_shared<int>(0);
    t.system->spawn(testing::lambda_actor([got](LambdaActor&, const Message& m) {
                      if (auto o = m.get_if<Opaque>()) *got = o->value;
                    }),
                    "a");
    EXPECT_EQ(t.queue().replay(entries[0].id).outcome, ReplayOutcome::kReplayed);
    t.run();
    EXPECT_EQ(*got, 8);
  }
  QueueSystem again(options());
  auto entries = again.queue().list();
  ASSERT_EQ(entries.size(), 1u);
  ASSERT_TRUE(entries[0].is_degraded());
  EXPECT_FALSE(std::get<DeadLetterEntry::Degraded>(entries[0].payload).class_name.empty());
  EXPECT_EQ(again.queue().replay(entries[0].id).outcome, ReplayOutcome::kDegradedPayload);
}

// --- logging ------------------------------------------------------------------

// Nothing is logged by default; opted in, the first N letters, then one summary per interval.
TEST(SystemDeadLetters, OptInLoggingLogsTheFirstLettersThenASummary) {
  {
    QueueSystem quiet(memory_store());
    quiet.system->actor_selection("/user/x").tell("m"s);
    EXPECT_TRUE(quiet.log->entries().empty());
  }
  QueueSystem t(ActorSystemOptions::create().with_config(
      "mailroom.log-dead-letters = 2\nmailroom.log-dead-letters-summary-interval = 10s"));
  for (int i = 0; i < 5; ++i) t.system->actor_selection("/user/x").tell(std::to_string(i));
  t.clock->fetch_add(10000);
  t.system->actor_selection("/user/x").tell("late"s);
  auto lines = t.log->entries();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[0].find("to /user/x"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("to /user/x"), std::string::npos) << lines[1];
  EXPECT_EQ(lines[2], "suppressed 4 dead letters in the last 10s");
}

}  // namespace
}  // namespace mailroom
