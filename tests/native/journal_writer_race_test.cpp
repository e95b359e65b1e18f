// One writer per stream under a race (issue 27): processes started at the
// same instant on one stream whose lock a killed writer left behind, with a
// busy process beside them, never both write; and the takeover follows the
// protocol the Node storage follows (a live ".takeover" marker is respected,
// a recycled pid is not taken for the owner).
#include <gtest/gtest.h>

#ifndef __EMSCRIPTEN__
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "mailroom/file_journal.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "support/scratch_dir.hpp"

namespace mailroom {
namespace {

namespace fs = std::filesystem;

using testing::ScratchDir;

void write_file(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr) << path;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
}

// A child standing for a live process until this object goes (it blocks on
// a pipe the destructor closes, then is reaped).
class LiveChild {
 public:
  LiveChild() {
    int release[2];
    if (::pipe(release) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      char c = 0;
      ::close(release[1]);
      (void)!::read(release[0], &c, 1);
      ::_exit(0);
    }
    ::close(release[0]);
    release_ = release[1];
  }
  ~LiveChild() {
    if (release_ >= 0) ::close(release_);
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
  }
  LiveChild(const LiveChild&) = delete;
  LiveChild& operator=(const LiveChild&) = delete;
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int release_ = -1;
};

std::string refusal(const std::string& dir) {
  FileJournal journal(dir);
  try {
    journal.acquire("s");
  } catch (const JournalLockedError& e) {
    return e.what();
  }
  return "";
}

constexpr int kRounds = 50;
constexpr int kLettersPerRound = 20;

// Each round forks 2-4 writers that wait on one barrier (a pipe the parent
// closes), take the stream, and, if they won, append the round's letters,
// flush and stay alive until the round's end kills them (SIGKILL: the lock
// file is left behind, so every round after the first is a stale takeover).
TEST(JournalWriterRace, ProcessesStartedTogetherLeaveExactlyOneWriterPerRound) {
  ScratchDir dir;
  const pid_t busy = ::fork();  // CPU load beside the racers
  ASSERT_GE(busy, 0);
  if (busy == 0) {
    std::atomic<unsigned long> spin{0};
    for (;;) spin.fetch_add(1, std::memory_order_relaxed);
  }
  std::vector<int> winners_per_round;
  for (int round = 0; round < kRounds; ++round) {
    const int racers = 2 + round % 3;
    int barrier[2];
    int results[2];
    ASSERT_EQ(::pipe(barrier), 0);
    ASSERT_EQ(::pipe(results), 0);
    std::vector<pid_t> children;
    for (int i = 0; i < racers; ++i) {
      const pid_t child = ::fork();
      ASSERT_GE(child, 0);
      if (child == 0) {
        ::close(barrier[1]);
        char c = 0;
        (void)!::read(barrier[0], &c, 1);  // returns when the parent closes it: all at once
        try {
          FileJournal journal(dir.str());
          journal.acquire("s");
          for (int n = 0; n < kLettersPerRound; ++n) {
            journal.append("s", "r" + std::to_string(round) + "-" + std::to_string(n));
          }
          journal.flush();
          c = 'W';
          (void)!::write(results[1], &c, 1);
          for (;;) ::pause();
        } catch (const JournalLockedError&) {
          c = 'R';
        } catch (...) {
          c = 'E';
        }
        (void)!::write(results[1], &c, 1);
        ::_exit(0);
      }
      children.push_back(child);
    }
    ::close(barrier[0]);
    ::close(results[1]);
    ::close(barrier[1]);  // go
    int won = 0;
    char c = 0;
    for (int i = 0; i < racers; ++i) {
      ASSERT_EQ(::read(results[0], &c, 1), 1);
      EXPECT_NE(c, 'E') << "round " << round;
      if (c == 'W') ++won;
    }
    ::close(results[0]);
    for (pid_t child : children) {
      ::kill(child, SIGKILL);
      int status = 0;
      ::waitpid(child, &status, 0);
    }
    winners_per_round.push_back(won);
  }
  ::kill(busy, SIGKILL);
  ::waitpid(busy, nullptr, 0);

  EXPECT_EQ(winners_per_round, std::vector<int>(kRounds, 1));
  FileJournal reader(dir.str());
  const JournalReadResult read = reader.read("s");
  EXPECT_FALSE(read.damaged) << read.damage;
  std::vector<std::string> expected;
  for (int round = 0; round < kRounds; ++round) {
    for (int n = 0; n < kLettersPerRound; ++n) {
      expected.push_back("r" + std::to_string(round) + "-" + std::to_string(n));
    }
  }
  std::vector<std::string> payloads;
  std::set<std::uint64_t> sequences;
  for (const auto& record : read.records) {
    payloads.push_back(record.payload);
    sequences.insert(record.sequence);
  }
  EXPECT_EQ(payloads, expected);  // none missing, none merged, in order
  EXPECT_EQ(sequences.size(), read.records.size());
}

// A live process taking over the stale lock (its marker is there): the native
// writer waits for it and then refuses, naming the marker, as Node does. It
// must not remove the stale file under the taker.
TEST(JournalWriterRace, ALiveTakeoverMarkerIsWaitedForThenRefused) {
  ScratchDir dir;
  const std::string lock_file = FileJournal(dir.str()).path_for("s") + ".lock";
  const LiveChild taking;
  const pid_t taker = taking.pid();
  ASSERT_GT(taker, 0);
  const pid_t dead = ::fork();
  if (dead == 0) ::_exit(0);
  ::waitpid(dead, nullptr, 0);
  write_file(lock_file, std::to_string(dead) + "\n");
  write_file(lock_file + ".takeover", std::to_string(taker) + "\n");
  const std::string what = refusal(dir.str());
  EXPECT_NE(what.find("taking over the stale lock"), std::string::npos) << what;
  EXPECT_TRUE(fs::exists(lock_file));
}

// A lock file whose pid is now used by an unrelated live process (another
// start time than the one written) is stale: the pid was recycled.
TEST(JournalWriterRace, ARecycledPidIsNotTakenForTheOwner) {
  ScratchDir dir;
  const std::string lock_file = FileJournal(dir.str()).path_for("s") + ".lock";
  const LiveChild unrelated;
  const pid_t other = unrelated.pid();
  ASSERT_GT(other, 0);
  write_file(lock_file, std::to_string(other) + " 1\n");  // started 1 tick after boot: not it
  EXPECT_EQ(refusal(dir.str()), "");
  // The same pid with its real start time is the live owner.
  std::FILE* stat = std::fopen(("/proc/" + std::to_string(other) + "/stat").c_str(), "rb");
  ASSERT_NE(stat, nullptr);
  char text[1024] = {};
  text[std::fread(text, 1, sizeof text - 1, stat)] = 0;
  std::fclose(stat);
  std::string fields(std::strrchr(text, ')') + 2);
  for (int field = 3; field < 22; ++field) fields = fields.substr(fields.find(' ') + 1);
  fs::remove(lock_file);
  write_file(lock_file, std::to_string(other) + " " + fields.substr(0, fields.find(' ')) + "\n");
  EXPECT_NE(refusal(dir.str()).find("process " + std::to_string(other)), std::string::npos);
}

}  // namespace
}  // namespace mailroom
#endif
