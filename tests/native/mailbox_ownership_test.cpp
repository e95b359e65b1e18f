// A mailbox an actor owns cannot be changed from outside (SPEC §3 promises
// the mailbox API on a mailbox no actor owns): the public MessageQueue
// members and StandaloneMailbox's refuse with IllegalStateError naming the
// owner and the method, reads keep working, and the actor's own path is
// untouched. Once the actor is gone the mailbox is usable again.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "mailroom/bounded_mailbox.hpp"
#include "mailroom/errors.hpp"
#include "mailroom/mailbox.hpp"
#include "mailroom/priority_mailbox.hpp"
#include "mailroom/standalone_mailbox.hpp"
#include "mailroom/unbounded_mailbox.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using testing::EventLog;
using testing::ManualSystem;

Envelope env(std::string text) {
  return Envelope{Message(std::move(text)), {}, {}, 0};
}

// `call` throws IllegalStateError whose message names `method` and the owner's path.
void expect_refused(const std::function<void()>& call, const std::string& method,
                    const std::string& owner) {
  try {
    call();
    ADD_FAILURE() << method << " was not refused";
  } catch (const IllegalStateError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(method + " refused"), std::string::npos) << what;
    EXPECT_NE(what.find(owner), std::string::npos) << what;
  }
}

struct QueueKind {
  const char* name;
  std::function<std::shared_ptr<MessageQueue>()> make;
};

class OwnedQueue : public ::testing::TestWithParam<QueueKind> {};

// Every public mutator of a queue kept by the user and handed to an actor is
// refused, naming the owner; nothing reaches the actor's queue, and the
// actor still receives what is told to it.
TEST_P(OwnedQueue, PublicMutatorsAreRefusedWhileReadsWork) {
  ManualSystem t;
  auto log = std::make_shared<EventLog>();
  auto queue = GetParam().make();
  auto ref = t.system->spawn(testing::recorder(log), "owner",
                             ActorOptions().with_mailbox([queue] { return queue; }));
  t.run();
  const std::string owner = ref.path();
  ASSERT_NE(owner.find("/user/owner"), std::string::npos);

  expect_refused([&] { queue->enqueue(env("slipped")); }, "enqueue", owner);
  expect_refused([&] { queue->enqueue_signal(env("signal")); }, "enqueue_signal", owner);
  expect_refused([&] { queue->enqueue_control(env("control")); }, "enqueue_control", owner);
  expect_refused([&] { queue->prepend({env("front")}); }, "prepend", owner);
  EXPECT_EQ(queue->size(), 0u) << "a refused call must not have queued anything";

  // Told while the actor is not running: the user may not steal or drain it.
  ref.tell(std::string("kept"));
  expect_refused([&] { (void)queue->dequeue(); }, "dequeue", owner);
  expect_refused([&] { (void)queue->drain(); }, "drain", owner);
  EXPECT_EQ(queue->size(), 1u);                              // reads keep working
  EXPECT_EQ(queue->dropped_count(), 0u);                     // ...
  queue->observe_drops([](DropReason, const Envelope&) {});  // additive, allowed
  t.run();
  EXPECT_EQ(log->entries(), std::vector<std::string>{"kept"});
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, OwnedQueue,
    ::testing::Values(
        QueueKind{"unbounded", [] { return std::make_shared<UnboundedMailbox>(); }},
        QueueKind{"bounded",
                  [] {
                    return std::make_shared<BoundedMailbox>(
                        BoundedMailboxOptions::create().with_capacity(4).with_overflow("drop-new"));
                  }},
        QueueKind{"priority",
                  [] {
                    return std::make_shared<PriorityMailbox>(
                        PriorityMailboxOptions::create().with_priority_for(
                            [](const Message&) { return 1.0; }));
                  }}),
    [](const ::testing::TestParamInfo<QueueKind>& info) { return std::string(info.param.name); });

// A StandaloneMailbox (what the JS Mailbox classes are a view of) works on its
// own, refuses every mutator once its queue is handed to an actor — suspend
// and resume included, which would otherwise silently miss the actor's own
// mailbox — and works again once that actor is gone.
TEST(StandaloneMailbox, RefusedWhileAnActorOwnsItsQueueAndUsableAgainAfter) {
  ManualSystem t;
  StandaloneMailbox box(std::make_shared<UnboundedMailbox>());
  box.enqueue(env("mine"));
  ASSERT_EQ(box.dequeue_user()->message.get<std::string>(), "mine");

  auto log = std::make_shared<EventLog>();
  auto queue = box.queue_ptr();
  auto ref = t.system->spawn(testing::recorder(log), "worker",
                             ActorOptions().with_mailbox([queue] { return queue; }));
  t.run();
  ASSERT_TRUE(box.owned());
  const std::string owner = ref.path();
  expect_refused([&] { box.enqueue(env("x")); }, "enqueue", owner);
  expect_refused([&] { box.enqueue_signal(env("x")); }, "enqueue_signal", owner);
  expect_refused([&] { box.enqueue_control(env("x")); }, "enqueue_control", owner);
  expect_refused([&] { box.enqueue_system(env("x")); }, "enqueue_system", owner);
  expect_refused([&] { (void)box.dequeue_user(); }, "dequeue_user", owner);
  expect_refused([&] { (void)box.dequeue_system(); }, "dequeue_system", owner);
  expect_refused([&] { (void)box.drain_user(); }, "drain_user", owner);
  expect_refused([&] { (void)box.drain_system(); }, "drain_system", owner);
  expect_refused([&] { box.prepend_user({env("x")}); }, "prepend_user", owner);
  expect_refused([&] { box.suspend(); }, "suspend", owner);
  expect_refused([&] { box.resume(); }, "resume", owner);
  EXPECT_FALSE(box.suspended());

  ref.tell(std::string("delivered"));
  EXPECT_EQ(box.size(), 1u);  // a read: the actor's pending message
  t.run();
  EXPECT_EQ(log->entries(), std::vector<std::string>{"delivered"});

  ref.stop();
  t.run();
  ASSERT_TRUE(ref.is_terminated());
  ref = ActorRef();  // the last holder of the cell: with it goes the claim
  ASSERT_FALSE(box.owned());
  box.enqueue(env("again"));
  EXPECT_EQ(box.dequeue_user()->message.get<std::string>(), "again");
}

// Another ActorMailbox cannot reach an owned queue: building one over it is
// refused, and an actor refuses a queue that one still wraps.
TEST(ActorMailboxOwnership, NoSecondActorMailboxAroundAnOwnedQueue) {
  ManualSystem t;
  auto queue = std::make_shared<UnboundedMailbox>();
  {
    ActorMailbox outside(queue);
    try {
      t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a",
                      ActorOptions().with_mailbox([queue] { return queue; }));
      ADD_FAILURE() << "an actor took a queue another ActorMailbox wraps";
    } catch (const OptionsError& e) {
      EXPECT_EQ(e.field(), "mailbox");
    }
    EXPECT_EQ(queue->owner(), nullptr);  // the refused spawn let go of it
  }
  auto ref = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "b",
                             ActorOptions().with_mailbox([queue] { return queue; }));
  t.run();
  expect_refused([&] { ActorMailbox late(queue); }, "ActorMailbox", ref.path());
}

// The framework's own calls into user mailbox code may use the owned queue's
// public API (a JS subclass's super.enqueue inside its enqueue override).
TEST(MessageQueueFrameworkCall, LetsTheServedQueueThroughOnThisThreadOnly) {
  ManualSystem t;
  auto queue = std::make_shared<UnboundedMailbox>();
  auto other = std::make_shared<UnboundedMailbox>();
  auto a = t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "a",
                           ActorOptions().with_mailbox([queue] { return queue; }));
  t.system->spawn(testing::recorder(std::make_shared<EventLog>()), "b",
                  ActorOptions().with_mailbox([other] { return other; }));
  t.run();
  {
    MessageQueue::FrameworkCall serving(*queue);
    queue->enqueue(env("through"));
    EXPECT_EQ(queue->size(), 1u);
    expect_refused([&] { other->enqueue(env("x")); }, "enqueue", "/user/b");
  }
  expect_refused([&] { queue->enqueue(env("x")); }, "enqueue", a.path());
}

}  // namespace
}  // namespace mailroom
