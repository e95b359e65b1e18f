#pragma once
// A child process whose standard output the test reads line by line (the
// cross-process tests start shared_store_node this way); SIGTERM and reaped
// when it goes out of scope.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace mailroom::testing {

class ChildProcess {
 public:
  explicit ChildProcess(std::vector<std::string> argv) {
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("fork failed");
    if (pid_ == 0) {
      ::dup2(fds[1], STDOUT_FILENO);
      ::close(fds[0]);
      ::close(fds[1]);
      std::vector<char*> args;
      for (auto& a : argv) args.push_back(a.data());
      args.push_back(nullptr);
      ::execv(args[0], args.data());
      std::perror("execv");
      ::_exit(127);
    }
    ::close(fds[1]);
    out_ = ::fdopen(fds[0], "r");
  }
  ~ChildProcess() { stop(); }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Reads lines until one starts with `prefix`; returns the rest of it. Throws
  // when the child's output ends first (everything it printed is in the message).
  std::string wait_for(const std::string& prefix) {
    char line[4096];
    while (std::fgets(line, sizeof line, out_) != nullptr) {
      std::string text(line);
      if (!text.empty() && text.back() == '\n') text.pop_back();
      seen_ += text + "\n";
      if (text.rfind(prefix, 0) == 0) return text.substr(prefix.size());
    }
    throw std::runtime_error("the child ended before printing \"" + prefix + "\": " + seen_);
  }
  // SIGTERM and wait; the exit status (-1 once stopped before).
  int stop() {
    if (pid_ <= 0) return -1;
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    if (out_ != nullptr) std::fclose(out_);
    out_ = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }

 private:
  pid_t pid_ = -1;
  std::FILE* out_ = nullptr;
  std::string seen_;
};

}  // namespace mailroom::testing
