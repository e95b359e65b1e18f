// A process killed with SIGKILL (fork + kill, no shutdown, no flush): what
// its persistent dead-letter queue had journaled is read back by the next
// one. A quiet process loses nothing once the sync-within bound has passed;
// an operator action that returned is never undone; a burst loses at most
// what arrived within the bound before the kill.
#include <gtest/gtest.h>

// fork and signals: native only (the wasm build of the suite has no processes).
#ifndef __EMSCRIPTEN__
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "mailroom/dead_letter_queue.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/payload_codec_registry.hpp"
#include "support/dead_letter_fakes.hpp"
#include "support/scratch_dir.hpp"

namespace mailroom {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr std::int64_t kBoundMs = 50;
constexpr std::size_t kMaxCaptures = 200000;

// Shared between the test and its forked child (MAP_SHARED).
struct Shared {
  std::atomic<int> ready{0};
  std::atomic<std::size_t> captured{0};
  std::atomic<std::int64_t> captured_at_us[kMaxCaptures];  // steady clock, per capture
};

std::int64_t now_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(Clock::now().time_since_epoch())
      .count();
}

// One "process": a persistent queue over a journal folder, the native syncer
// keeping the bound (no host timer), as an ActorSystem wires it.
struct Process {
  explicit Process(const fs::path& dir) {
    codecs.add<std::string>(
        "string", [](const std::string& s) { return nlohmann::json(s); },
        [](const nlohmann::json& j) { return j.get<std::string>(); });
    DeadLetterQueue::Dependencies d;
    d.target = &target;
    d.journal = std::make_shared<FileJournal>(dir.string());
    d.codecs = &codecs;
    queue = std::make_unique<DeadLetterQueue>(DeadLetterQueueOptions::create()
                                                  .with_store("persistent")
                                                  .with_max_entries(1000000)
                                                  .with_sync_within_ms(kBoundMs)
                                                  .resolve(nullptr, "shop"),
                                              d);
  }
  void capture(std::size_t i) {
    queue->capture(testing::make_letter(Message(std::string("m") + std::to_string(i)), "/user/a"));
  }
  std::vector<std::uint64_t> ids() const {
    std::vector<std::uint64_t> out;
    for (const auto& e : queue->list()) out.push_back(e.id);
    return out;
  }
  PayloadCodecRegistry codecs;
  testing::FakeReplayTarget target;
  std::unique_ptr<DeadLetterQueue> queue;
};

class DeadLetterCrash : public ::testing::Test {
 protected:
  void SetUp() override {
    void* memory =
        ::mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(memory, MAP_FAILED);
    shared_ = new (memory) Shared();
  }
  void TearDown() override {
    if (child_ > 0) {
      ::kill(child_, SIGKILL);
      ::waitpid(child_, nullptr, 0);
    }
    ::munmap(shared_, sizeof(Shared));
  }

  // Runs body in a child process, which then waits to be killed.
  template <class Body>
  void start_child(Body body) {
    child_ = ::fork();
    ASSERT_GE(child_, 0);
    if (child_ == 0) {
      {
        Process process(dir_);
        body(process);
        shared_->ready.store(1);
        for (;;) ::pause();  // no shutdown: only SIGKILL ends it
      }
    }
  }
  void wait_ready() {
    const auto until = Clock::now() + std::chrono::seconds(60);
    while (shared_->ready.load() == 0) {
      ASSERT_LT(Clock::now(), until) << "the child never got ready";
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  std::int64_t kill_child() {
    const std::int64_t at = now_us();
    ::kill(child_, SIGKILL);
    int status = 0;
    ::waitpid(child_, &status, 0);
    child_ = -1;
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    return at;
  }

  testing::ScratchDir scratch_{"mailroom-crash"};
  const fs::path dir_ = scratch_.path();
  Shared* shared_ = nullptr;
  pid_t child_ = -1;
};

TEST_F(DeadLetterCrash, AQuietProcessKilledAfterTheBoundLosesNothing) {
  start_child([](Process& p) {
    for (std::size_t i = 0; i < 100; ++i) p.capture(i);
  });
  wait_ready();
  std::this_thread::sleep_for(std::chrono::milliseconds(2 * kBoundMs));
  kill_child();
  Process restarted(dir_);
  EXPECT_EQ(restarted.ids().size(), 100u);
}

TEST_F(DeadLetterCrash, APurgeThatReturnedIsNotUndoneByAKill) {
  start_child([](Process& p) {
    for (std::size_t i = 0; i < 100; ++i) p.capture(i);
    std::vector<std::uint64_t> oldest;
    for (std::uint64_t id = 1; id <= 40; ++id) oldest.push_back(id);
    p.queue->remove(oldest);
  });
  wait_ready();
  kill_child();  // at once: the purge's return is the promise
  Process restarted(dir_);
  const auto ids = restarted.ids();
  EXPECT_EQ(ids.size(), 60u);
  for (std::uint64_t id : ids) EXPECT_GT(id, 40u);
}

TEST_F(DeadLetterCrash, AClearThatReturnedIsNotUndoneByAKill) {
  start_child([](Process& p) {
    for (std::size_t i = 0; i < 50; ++i) p.capture(i);
    p.queue->clear();
  });
  wait_ready();
  kill_child();
  Process restarted(dir_);
  EXPECT_TRUE(restarted.ids().empty());
}

// Captures as fast as one thread can, killed mid-burst: every letter captured
// more than the bound (plus scheduling slack on a loaded machine) before the
// kill is back, and what is back has no hole.
TEST_F(DeadLetterCrash, ABurstLosesAtMostWhatArrivedWithinTheBound) {
  Shared* shared = shared_;
  start_child([shared](Process& p) {
    shared->ready.store(1);
    for (std::size_t i = 0; i < kMaxCaptures; ++i) {
      p.capture(i);
      shared->captured_at_us[i].store(now_us(), std::memory_order_relaxed);
      shared->captured.store(i + 1, std::memory_order_release);
    }
  });
  wait_ready();
  const auto until = Clock::now() + std::chrono::seconds(60);
  while (shared_->captured.load() < 2000 && Clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::int64_t killed_at = kill_child();
  const std::size_t captured = shared_->captured.load();
  ASSERT_LT(captured, kMaxCaptures) << "the burst ended before the kill: make it longer";

  Process restarted(dir_);
  auto ids = restarted.ids();
  std::sort(ids.begin(), ids.end());
  for (std::size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], i + 1) << "a hole in the journal";
  constexpr std::int64_t kSlackUs = 1000 * 1000;
  std::size_t old_enough = 0;
  while (old_enough < captured &&
         shared_->captured_at_us[old_enough].load() < killed_at - kBoundMs * 1000 - kSlackUs) {
    ++old_enough;
  }
  EXPECT_GE(ids.size(), old_enough);
  std::size_t within_bound = 0;  // captured in the last bound before the kill
  for (std::size_t i = 0; i < captured; ++i) {
    if (shared_->captured_at_us[i].load() >= killed_at - kBoundMs * 1000) ++within_bound;
  }
  const std::size_t lost = captured > ids.size() ? captured - ids.size() : 0;
  std::cout << "[ burst ] captured " << captured << ", restored " << ids.size() << ", lost " << lost
            << ", captured within the last " << kBoundMs << " ms: " << within_bound << "\n";
  RecordProperty("lost", static_cast<int>(lost));
}

}  // namespace
}  // namespace mailroom
#endif  // __EMSCRIPTEN__
