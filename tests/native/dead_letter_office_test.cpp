// ActorSystem::dead_letters(): the dead-letter office as a ref (the seed
// framework's DeadLetterRef, issue 12). What it is told is recorded by the
// sink and published on the event stream; a DeadLetter goes as it is.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using testing::LambdaActor;
using testing::ManualSystem;

// Every letter published on the event stream, in order. The subscriber holds the
// list weakly: the letters hold refs, every cell holds the system, and the event
// stream keeps its subscribers, so a strong capture would be a cycle that
// outlives the test (LeakSanitizer).
std::shared_ptr<std::vector<DeadLetter>> published(ActorSystem& system) {
  auto letters = std::make_shared<std::vector<DeadLetter>>();
  std::weak_ptr<std::vector<DeadLetter>> weak = letters;
  system.event_stream().subscribe<DeadLetter>(
      std::function<void(const DeadLetter&)>([weak](const DeadLetter& l) {
        if (auto list = weak.lock()) list->push_back(l);
      }));
  return letters;
}

// The office is "<system>/deadLetters", one ref for every call, never terminated
// by stop(): the PoisonPill is a letter to it like any other (as in JS).
TEST(DeadLetterOffice, IsOneRefNamedDeadLettersUnderTheSystem) {
  ManualSystem s("orders");
  const ActorRef office = s.system->dead_letters();
  EXPECT_EQ(office.local_path(), "/deadLetters");
  EXPECT_EQ(office.path(), "mailroom://orders/deadLetters");
  EXPECT_EQ(office, s.system->dead_letters());
  office.stop();
  office.tell(std::string("still here"));
  s.run();
  ASSERT_EQ(s.dead_texts(), (std::vector<std::string>{"mailroom::PoisonPill", "still here"}));
}

// A plain message becomes DeadLetter{message, sender, office}: sink first, then subscribers.
TEST(DeadLetterOffice, WrapsAPlainMessageWithTheOfficeAsRecipient) {
  ManualSystem s;
  auto letters = published(*s.system);
  const ActorRef office = s.system->dead_letters();
  ActorRef sender =
      s.system->spawn(testing::lambda_actor([office](LambdaActor& self, const Message& m) {
                        office.tell(m, self.me());
                      }),
                      "sender");
  sender.tell(std::string("from an actor"));
  s.run();
  office.tell(std::string("no sender"));  // recorded at once: the office has no mailbox
  ASSERT_EQ(letters->size(), 2u);
  EXPECT_EQ(testing::text((*letters)[0].message), "from an actor");
  EXPECT_EQ((*letters)[0].sender, sender);
  EXPECT_EQ((*letters)[0].sender_path, "/user/sender");
  EXPECT_EQ((*letters)[0].recipient, s.system->dead_letters());
  EXPECT_EQ((*letters)[0].recipient_path, "/deadLetters");
  EXPECT_EQ((*letters)[0].cause, DeadLetterCause::kPublished);
  EXPECT_EQ(testing::text((*letters)[1].message), "no sender");
  EXPECT_FALSE((*letters)[1].sender.valid());
  EXPECT_EQ((*letters)[1].recipient_path, "/deadLetters");
  ASSERT_EQ(s.dead_texts(), (std::vector<std::string>{"from an actor", "no sender"}));
}

// A DeadLetter told to the office is recorded as it is: its own recipient and sender.
TEST(DeadLetterOffice, RecordsADeadLetterAsItIs) {
  ManualSystem s;
  auto letters = published(*s.system);
  ActorRef target =
      s.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {}), "target");
  ActorRef from =
      s.system->spawn(testing::lambda_actor([](LambdaActor&, const Message&) {}), "from");
  DeadLetter letter;
  letter.message = Message(std::string("lost"));
  letter.sender = from;
  letter.recipient = target;
  s.system->dead_letters().tell(letter);
  s.run();
  ASSERT_EQ(letters->size(), 1u);
  EXPECT_EQ(testing::text((*letters)[0].message), "lost");
  EXPECT_EQ((*letters)[0].recipient, target);
  EXPECT_EQ((*letters)[0].recipient_path, "/user/target");
  EXPECT_EQ((*letters)[0].sender, from);
  ASSERT_EQ(s.sink->letters().size(), 1u);
  EXPECT_EQ(s.sink->letters()[0].recipient_path, "/user/target");
}

// A DeadLetter about a DeadLetter is dropped: a delivery loop has nowhere further to go.
TEST(DeadLetterOffice, DropsADeadLetterAboutADeadLetter) {
  ManualSystem s;
  auto letters = published(*s.system);
  DeadLetter inner;
  inner.message = Message(std::string("x"));
  inner.recipient = s.system->dead_letters();
  DeadLetter outer;
  outer.message = Message(inner);
  outer.recipient = s.system->dead_letters();
  s.system->dead_letters().tell(outer);
  s.run();
  EXPECT_TRUE(letters->empty());
  EXPECT_TRUE(s.sink->letters().empty());
}

// The system's own queue captures what the office is told (no sink replaced).
TEST(DeadLetterOffice, ReachesTheSystemsQueue) {
  auto dispatcher = std::make_shared<ManualDispatcher>();
  auto system = ActorSystem::create(
      "office", ActorSystemOptions::create()
                    .with_dispatcher(dispatcher)
                    .with_dead_letters(DeadLetterQueueOptions::create().with_store("memory"))
                    .with_log_sink([](const LogEvent&) {}));
  system->dead_letters().tell(std::string("kept"));
  const auto entries = system->dead_letter_queue().list({});
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].recipient_path, "/deadLetters");
  system->terminate();
  system->await_termination();
}

}  // namespace
}  // namespace mailroom
