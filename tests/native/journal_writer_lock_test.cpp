// One writer per journal stream: a second FileJournal (in this process or in
// another one) and a second live system of the same name with a persistent
// store are refused with JournalLockedError, never merged; once the writer is
// gone, the stream can be taken.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/dead_letter_queue_options.hpp"
#include "mailroom/file_journal.hpp"
#include "mailroom/journal_locked_error.hpp"
#include "mailroom/manual_dispatcher.hpp"
#include "support/scratch_dir.hpp"

#ifndef __EMSCRIPTEN__
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace mailroom {
namespace {

namespace fs = std::filesystem;

using testing::ScratchDir;

// A second journal on the same folder cannot write a stream the first writes;
// other streams and reading stay open to it.
TEST(JournalWriterLock, SecondJournalInTheProcessIsRefused) {
  ScratchDir dir;
  FileJournal first(dir.str());
  first.append("s", "one");
  FileJournal second(dir.str());
  EXPECT_THROW(second.acquire("s"), JournalLockedError);
  EXPECT_THROW(second.append("s", "two"), JournalLockedError);
  EXPECT_NO_THROW(second.append("other", "x"));
  first.flush();
  EXPECT_EQ(second.read("s").records.size(), 1u);  // a read-only view
}

// The refusal names the stream and where it lives.
TEST(JournalWriterLock, TheErrorNamesTheStream) {
  ScratchDir dir;
  FileJournal first(dir.str());
  first.acquire("dead-letters");
  FileJournal second(dir.str());
  try {
    second.acquire("dead-letters");
    FAIL() << "no JournalLockedError";
  } catch (const JournalLockedError& e) {
    EXPECT_EQ(e.stream(), "dead-letters");
    EXPECT_EQ(e.location(), first.path_for("dead-letters"));
    EXPECT_NE(std::string(e.what()).find("already has a writer"), std::string::npos);
  }
}

// release() and destruction free the stream for the next writer, whose
// appends continue the sequence.
TEST(JournalWriterLock, ReleasedStreamCanBeTaken) {
  ScratchDir dir;
  auto first = std::make_unique<FileJournal>(dir.str());
  first->append("s", "one");
  first->release("s");
  FileJournal second(dir.str());
  EXPECT_EQ(second.append("s", "two"), 2u);
  second.release("s");
  EXPECT_EQ(first->append("s", "three"), 3u);  // the first takes it back
  first.reset();
  FileJournal third(dir.str());
  EXPECT_EQ(third.append("s", "four"), 4u);
}

#ifndef __EMSCRIPTEN__
// A fresh journal on the folder cannot take stream "s"; the refusal names the holder's pid.
void expect_refused_naming(const std::string& dir, pid_t holder) {
  FileJournal journal(dir);
  try {
    journal.acquire("s");
    ADD_FAILURE() << "no JournalLockedError";
  } catch (const JournalLockedError& e) {
    EXPECT_NE(std::string(e.what()).find("process " + std::to_string(holder)), std::string::npos)
        << e.what();
  }
}

// Another process holding the stream refuses this one; when it dies (killed,
// its lock file left behind) the stale lock is taken over.
TEST(JournalWriterLock, AnotherProcessIsRefusedUntilItDies) {
  ScratchDir dir;
  int ready[2];
  int release[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    FileJournal journal(dir.str());
    journal.acquire("s");
    char c = 'r';
    (void)!::write(ready[1], &c, 1);
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  expect_refused_naming(dir.str(), child);
  ::kill(child, SIGKILL);  // a hard kill: no destructor runs
  int status = 0;
  ::waitpid(child, &status, 0);
  FileJournal journal(dir.str());
  EXPECT_NO_THROW(journal.acquire("s"));
  for (int fd : {ready[0], ready[1], release[0], release[1]}) ::close(fd);
}

// The lock protocol Node follows too: while a native writer holds a stream,
// "<file>.lock" holds its "<pid> <start-time>"; released, the file is gone.
TEST(JournalWriterLock, TheLockFileNamesTheHolderWhileItHolds) {
  ScratchDir dir;
  const std::string lock_file = FileJournal(dir.str()).path_for("s") + ".lock";
  const auto content = [&] {
    std::string text;
    if (std::FILE* f = std::fopen(lock_file.c_str(), "rb")) {
      char buffer[64];
      text.assign(buffer, std::fread(buffer, 1, sizeof buffer, f));
      std::fclose(f);
    }
    return text;
  };
  const std::string stamp = std::to_string(::getpid()) + " ";
  {
    FileJournal journal(dir.str());
    journal.acquire("s");
    EXPECT_EQ(content().rfind(stamp, 0), 0u) << content();
    EXPECT_EQ(content().back(), '\n');
    journal.release("s");
    EXPECT_FALSE(fs::exists(lock_file));
    journal.acquire("s");
  }
  EXPECT_FALSE(fs::exists(lock_file));  // destruction releases it too
}

// A writer holds a stream by "<file>.lock" naming it; an older writer wrote
// only its pid: a live pid there refuses a native writer, naming the process;
// a dead one is a stale lock that is taken over.
TEST(JournalWriterLock, ALivePidInTheLockFileRefusesUntilItDies) {
  ScratchDir dir;
  const std::string lock_file = FileJournal(dir.str()).path_for("s") + ".lock";
  int release[2];
  ASSERT_EQ(::pipe(release), 0);
  const pid_t child = ::fork();  // stands for the other writer: alive
  ASSERT_GE(child, 0);
  if (child == 0) {
    char c = 0;
    ::close(release[1]);
    (void)!::read(release[0], &c, 1);
    ::_exit(0);
  }
  ::close(release[0]);
  {
    std::FILE* f = std::fopen(lock_file.c_str(), "wb");
    std::fprintf(f, "%d\n", static_cast<int>(child));
    std::fclose(f);
  }
  expect_refused_naming(dir.str(), child);
  ::close(release[1]);  // the child exits
  int status = 0;
  ::waitpid(child, &status, 0);
  FileJournal journal(dir.str());
  EXPECT_NO_THROW(journal.acquire("s"));
}
#endif

ActorSystemOptions persistent_in(const std::string& dir) {
  return ActorSystemOptions::create()
      .with_dispatcher(std::make_shared<ManualDispatcher>())
      .with_dead_letters(DeadLetterQueueOptions::create().with_store("persistent"))
      .with_journal_dir(dir);
}

// Two live systems with the same name and a persistent store: the second is
// refused at create; after the first terminated, a new one restores its letters.
TEST(JournalWriterLock, SecondLiveSystemWithTheSameNameIsRefused) {
  ScratchDir dir;
  auto first = ActorSystem::create("orders", persistent_in(dir.str()));
  first->actor_selection("/user/nobody").tell(std::string("kept"));
  EXPECT_THROW(ActorSystem::create("orders", persistent_in(dir.str())), JournalLockedError);
  auto other = ActorSystem::create("billing", persistent_in(dir.str()));  // another stream
  first->terminate();
  first->await_termination();
  auto again = ActorSystem::create("orders", persistent_in(dir.str()));  // first still referenced
  EXPECT_EQ(again->dead_letter_queue().list().size(), 1u);
}

}  // namespace
}  // namespace mailroom
