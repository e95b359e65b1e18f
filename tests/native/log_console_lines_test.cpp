// The default console sink writes whole lines: actors on a thread pool log at
// once, and no line may be cut into or merged with another. Before the sink
// wrote each line whole under one lock, 4 actors x 2,000 warnings gave ~485
// malformed lines on stderr (each piece of a line was its own write).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <latch>
#include <map>
#include <regex>
#include <string>

#include "mailroom/actor_system.hpp"
#include "mailroom/thread_pool_dispatcher.hpp"
#include "support/runtime_harness.hpp"

namespace mailroom {
namespace {

using testing::LambdaActor;

constexpr int kActors = 4;
constexpr int kLinesEach = 2000;

// Runs f with file descriptor 2 (stderr, where warnings go: unbuffered, so
// every piece of a line is its own write) pointed at a temporary file;
// returns what was written there.
template <typename F>
std::string capture_stderr(F f) {
  char path[] = "/tmp/mailroom-console-XXXXXX";
  const int file = ::mkstemp(path);
  if (file < 0) return "";
  std::cerr.flush();
  std::fflush(stderr);
  const int saved = ::dup(2);
  ::dup2(file, 2);
  f();
  std::cerr.flush();
  std::fflush(stderr);
  ::dup2(saved, 2);
  ::close(saved);
  ::close(file);
  std::ifstream in(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ::unlink(path);
  return text;
}

TEST(LogConsoleLines, ConcurrentActorsNeverInterleaveALine) {
#ifdef __EMSCRIPTEN__
  GTEST_SKIP() << "no threads in the wasm build";
#else
  const std::string text = capture_stderr([] {
    auto system = ActorSystem::create(
        "console-lines",
        ActorSystemOptions().with_dispatcher(std::make_shared<ThreadPoolDispatcher>(kActors)));
    std::latch done(kActors);
    std::vector<ActorRef> talkers;
    for (int a = 0; a < kActors; ++a) {
      talkers.push_back(system->spawn(
          testing::lambda_actor([&done](LambdaActor& self, const Message&) {
            for (int i = 0; i < kLinesEach; ++i) {
              self.ctx().log().warn("line " + std::to_string(i) + " of a long enough message");
            }
            done.count_down();
          }),
          "talker" + std::to_string(a)));
    }
    for (ActorRef& ref : talkers) ref.tell(1);
    done.wait();
    system->terminate();
    system->await_termination();
  });
  const std::regex whole(R"(\[warn\] /user/talker(\d): line (\d+) of a long enough message)");
  std::map<int, int> next;  // per actor, the line number expected next
  int lines = 0;
  int malformed = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    std::smatch m;
    if (!std::regex_match(line, m, whole)) {
      if (line.find("talker") != std::string::npos) ++malformed;
      continue;  // other lines (the system's own) are not ours to judge
    }
    const int actor = std::stoi(m[1]);
    EXPECT_EQ(std::stoi(m[2]), next[actor]) << "actor " << actor << " lost or reordered a line";
    next[actor] = std::stoi(m[2]) + 1;
    ++lines;
  }
  EXPECT_EQ(malformed, 0);
  EXPECT_EQ(lines, kActors * kLinesEach);
#endif
}

}  // namespace
}  // namespace mailroom
