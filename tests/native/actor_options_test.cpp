#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/metrics_registry.hpp"
#include "mailroom/unbounded_mailbox.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using namespace std::string_literals;
using testing::EventLog;
using testing::LambdaActor;
using testing::ManualSystem;

template <class F>
void expect_options_error(F f, const std::string& field, const std::string& value) {
  try {
    f();
    FAIL() << "no OptionsError for " << field;
  } catch (const OptionsError& e) {
    EXPECT_EQ(e.family(), "ActorOptions");
    EXPECT_EQ(e.field(), field);
    if (!value.empty()) {
      EXPECT_EQ(e.value(), value);
    }
  }
}

ActorFactory idle() {
  return testing::lambda_actor([](LambdaActor&, const Message&) {});
}

// Capacity must be a positive whole number, checked when set.
TEST(ActorOptions, InvalidCapacitiesAreRejectedAtOnce) {
  for (double bad : {0.0, -1.0, 1.5, std::nan(""), std::numeric_limits<double>::infinity()}) {
    expect_options_error([&] { ActorOptions().with_mailbox_capacity(bad); }, "mailboxCapacity", "");
  }
  EXPECT_EQ(ActorOptions().with_mailbox_capacity(3).mailbox_capacity(), 3u);
}

// Unknown policies and drop-lowest-priority (no priorities in a FIFO) are refused.
TEST(ActorOptions, UnknownOrPriorityOnlyOverflowPoliciesAreRejected) {
  expect_options_error([] { ActorOptions().with_mailbox_overflow("drop-everything"); },
                       "mailboxOverflow", "drop-everything");
  expect_options_error([] { ActorOptions().with_mailbox_overflow("drop-lowest-priority"); },
                       "mailboxOverflow", "drop-lowest-priority");
  expect_options_error([] { ActorOptions().with_throughput(0); }, "throughput", "0");
}

// An overflow policy without a capacity is an error at spawn, not silently ignored.
TEST(ActorOptions, OverflowWithoutCapacityIsRejectedAtSpawn) {
  ManualSystem t;
  expect_options_error(
      [&] { t.system->spawn(idle(), "a", ActorOptions().with_mailbox_overflow("drop-new")); },
      "mailboxOverflow", "drop-new");
  EXPECT_EQ(t.system->resolve("/user/a"), std::nullopt);
}

// A mailbox factory cannot be combined with a capacity.
TEST(ActorOptions, FactoryPlusCapacityIsRejected) {
  ManualSystem t;
  auto options = ActorOptions()
                     .with_mailbox([] { return std::make_shared<UnboundedMailbox>(); })
                     .with_mailbox_capacity(5);
  expect_options_error([&] { t.system->spawn(idle(), "a", options); }, "mailboxCapacity", "5");
}

// A factory returning null, or an instance another actor owns, is refused.
TEST(ActorOptions, NullOrSharedMailboxFromAFactoryIsRejected) {
  ManualSystem t;
  expect_options_error(
      [&] { t.system->spawn(idle(), "a", ActorOptions().with_mailbox([] { return nullptr; })); },
      "mailbox", "null");
  auto shared = std::make_shared<UnboundedMailbox>();
  auto options = ActorOptions().with_mailbox([shared] { return shared; });
  auto first = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "first", options);
  expect_options_error([&] { t.system->spawn(idle(), "second", options); }, "mailbox", "");
  EXPECT_EQ(t.system->resolve("/user/second"), std::nullopt);
  EXPECT_FALSE(first.is_terminated());
}

// The factory runs once per actor: a restart keeps the mailbox.
TEST(ActorOptions, MailboxFactoryRunsOncePerActorEvenAcrossRestarts) {
  ManualSystem t;
  auto calls = std::make_shared<int>(0);
  auto ref = t.system->spawn(
      testing::lambda_actor([](LambdaActor&, const Message&) { throw std::runtime_error("boom"); }),
      "a", ActorOptions().with_mailbox([calls] {
        ++*calls;
        return std::make_shared<UnboundedMailbox>();
      }));
  ref.tell(1);
  ref.tell(2);
  t.run();
  EXPECT_EQ(*calls, 1);
}

// A capacity alone bounds the default FIFO with drop-head; drops are counted.
TEST(ActorOptions, CapacityAloneMeansDropHeadAndDropsAreCounted) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto ref = t.system->spawn(testing::recorder(log), "a", ActorOptions().with_mailbox_capacity(2));
  t.run();
  for (auto m : {"1"s, "2"s, "3"s}) ref.tell(m);
  t.run();
  EXPECT_EQ(log->entries(), (std::vector<std::string>{"2", "3"}));
  auto rows = t.system->inspect();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].mailbox_kind, "bounded");
  EXPECT_EQ(rows[0].overflow, "drop-head");
  EXPECT_EQ(rows[0].capacity, 2u);
  EXPECT_EQ(rows[0].dropped, 1u);
  const std::string scrape = t.system->metrics().scrape();
  EXPECT_NE(
      scrape.find(
          R"(actor_mailbox_dropped_total{class="LambdaActor",path="/user/a",policy="drop-head"} 1)"),
      std::string::npos)
      << scrape;
  EXPECT_TRUE(t.sink->letters().empty());  // dead_letter_drops is off
}

// With dead_letter_drops a discarded envelope becomes a DeadLetter for its recipient.
TEST(ActorOptions, DeadLetterDropsTurnDiscardedEnvelopesIntoDeadLetters) {
  ManualSystem t;
  auto ref = t.system->spawn(idle(), "a", ActorOptions().with_mailbox([] {
    return std::make_shared<BoundedMailbox>(BoundedMailboxOptions::create()
                                                .with_capacity(1)
                                                .with_overflow(OverflowPolicy::kDropNew)
                                                .with_dead_letter_drops(true));
  }));
  t.run();
  ref.tell("kept"s);
  ref.tell("dropped"s);
  auto letters = t.sink->letters();
  ASSERT_EQ(letters.size(), 1u);
  EXPECT_EQ(testing::text(letters[0].message), "dropped");
  EXPECT_EQ(letters[0].recipient_path, "/user/a");
}

}  // namespace
}  // namespace mailroom
