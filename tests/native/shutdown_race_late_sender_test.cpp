// The late sender, made deterministic (the race shutdown_race_test finds only
// by chance): a plain tell queues without registering and then reads the
// actor's state. These tests park a real sender thread inside its enqueue —
// a test MessageQueue around an UnboundedMailbox, so production code carries
// no seam — while the actor's finish_stop runs on the test thread, then let
// it go, and count how often the message is accounted for.
//
//   before its push: finish_stop's drain finds nothing, so the sender must see
//   kTerminated and drain the queue itself (ActorCell::tell), before its tell
//   returns; without that drain the message sits in a dead actor's queue.
//   after its push:  finish_stop's drain takes the message, and the sender's
//   own drain, which runs too, must not account for it a second time.
#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "mailroom/actor_system.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "mailroom/unbounded_mailbox.hpp"

namespace mailroom {
namespace {

constexpr int kParked = 7;  // the message whose sender is parked

// One sender parked until the test lets it go.
class Gate {
 public:
  void park() {
    std::unique_lock lock(mutex_);
    parked_ = true;
    changed_.notify_all();
    changed_.wait(lock, [this] { return released_; });
  }
  void await_parked() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return parked_; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool parked_ = false;
  bool released_ = false;
};

enum class ParkAt { kBeforePush, kAfterPush };

// An UnboundedMailbox whose enqueue of kParked stops at a gate, before or
// after the real push. Everything else is forwarded, the sequential
// consistency promise included (the push is still the inner queue's).
class ParkingQueue final : public MessageQueue {
 public:
  ParkingQueue(ParkAt at, std::shared_ptr<Gate> gate) : at_(at), gate_(std::move(gate)) {}

  void do_enqueue(Envelope envelope) override {
    const bool parks = envelope.message.is<int>() && envelope.message.get<int>() == kParked;
    if (parks && at_ == ParkAt::kBeforePush) gate_->park();
    inner_.enqueue(std::move(envelope));
    if (parks && at_ == ParkAt::kAfterPush) gate_->park();
  }
  void do_enqueue_signal(Envelope envelope) override { inner_.enqueue_signal(std::move(envelope)); }
  std::size_t size() const override { return inner_.size(); }
  bool size_at_least(std::size_t n) const override { return inner_.size_at_least(n); }
  MailboxDescription describe() const override { return inner_.describe(); }
  bool enqueue_is_sequentially_consistent() const noexcept override {
    return inner_.enqueue_is_sequentially_consistent();
  }
  std::optional<Envelope> do_dequeue() override { return inner_.dequeue(); }
  std::vector<Envelope> do_drain() override { return inner_.drain(); }
  void do_prepend(std::vector<Envelope> envelopes) override {
    inner_.prepend(std::move(envelopes));
  }

 private:
  const ParkAt at_;
  const std::shared_ptr<Gate> gate_;
  UnboundedMailbox inner_;
};

// How often kParked was delivered and dead-lettered.
struct Tally {
  std::atomic<int> delivered{0};
  std::atomic<int> dead_lettered{0};
};

class Recorder final : public Actor {
 public:
  explicit Recorder(std::shared_ptr<Tally> tally) : tally_(std::move(tally)) {}
  void receive(const Message& m) override {
    if (m.is<int>() && m.get<int>() == kParked) tally_->delivered.fetch_add(1);
  }

 private:
  std::shared_ptr<Tally> tally_;
};

struct LateSender {
  explicit LateSender(ParkAt at) : dispatcher(std::make_shared<ManualDispatcher>()) {
    system = ActorSystem::create(
        "late",
        ActorSystemOptions::create().with_dispatcher(dispatcher).with_log_sink([](const LogEvent&) {
        }));
    system->event_stream().subscribe<DeadLetter>(
        std::function<void(const DeadLetter&)>([tally = tally](const DeadLetter& letter) {
          if (letter.message.is<int>() && letter.message.get<int>() == kParked) {
            tally->dead_lettered.fetch_add(1);
          }
        }));
    auto gate_for_queue = gate;
    target = system->spawn([tally = tally] { return std::make_unique<Recorder>(tally); }, "target",
                           ActorOptions::create().with_mailbox([at, gate_for_queue] {
                             return std::make_shared<ParkingQueue>(at, gate_for_queue);
                           }));
    dispatcher->run_until_idle();  // created and running
  }

  std::shared_ptr<Tally> tally = std::make_shared<Tally>();
  std::shared_ptr<Gate> gate = std::make_shared<Gate>();
  std::shared_ptr<ManualDispatcher> dispatcher;
  std::shared_ptr<ActorSystem> system;
  ActorRef target;
};

// Parked before its push: the stop completes with an empty queue, then the
// message lands in it. The sender's tell hands it to the dead letters itself.
TEST(ShutdownRaceLateSender, APushAfterTheFinalDrainIsDeadLetteredByItsSender) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  LateSender t(ParkAt::kBeforePush);
  t.target.stop();  // PoisonPill queued; the actor is still running
  std::thread sender([&] { t.target.tell(kParked); });
  t.gate->await_parked();  // past the sender's state check, before its push

  t.dispatcher->run_until_idle();  // PoisonPill: finish_stop, its drain finds nothing
  ASSERT_TRUE(t.target.is_terminated());
  EXPECT_EQ(t.tally->dead_lettered.load(), 0) << "not queued yet";

  t.gate->release();
  sender.join();
  // Accounted for by the time the tell returned, with nothing else run.
  EXPECT_EQ(t.tally->dead_lettered.load(), 1)
      << "a message pushed after finish_stop's drain was left in the dead actor's queue";
  t.dispatcher->run_until_idle();
  t.system->terminate();
  t.system->await_termination();
  EXPECT_EQ(t.tally->dead_lettered.load(), 1);
  EXPECT_EQ(t.tally->delivered.load(), 0);
}

// Parked after its push: finish_stop's drain takes the message; the sender's
// drain, which runs too, finds nothing more. Once, not twice.
TEST(ShutdownRaceLateSender, APushBeforeTheFinalDrainIsDeadLetteredOnce) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "threads";
#endif
  LateSender t(ParkAt::kAfterPush);
  t.target.stop();
  std::thread sender([&] { t.target.tell(kParked); });
  t.gate->await_parked();  // queued behind the PoisonPill, state not read yet

  t.dispatcher->run_until_idle();
  ASSERT_TRUE(t.target.is_terminated());
  EXPECT_EQ(t.tally->dead_lettered.load(), 1) << "finish_stop's drain takes what is queued";

  t.gate->release();
  sender.join();
  t.dispatcher->run_until_idle();
  t.system->terminate();
  t.system->await_termination();
  EXPECT_EQ(t.tally->dead_lettered.load(), 1);
  EXPECT_EQ(t.tally->delivered.load(), 0);
}

}  // namespace
}  // namespace mailroom
