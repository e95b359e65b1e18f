#include "process_identity.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>

namespace mailroom::detail {
namespace {

std::string start_time_of(long pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return "";
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {
    if (i == 22) return field;
  }
  return "";
}

}  // namespace

const ProcessIdentity& this_process() {
  // Per pid, not once: a forked child is another process with its own lease.
  static thread_local ProcessIdentity identity;
  const long pid = static_cast<long>(::getpid());
  if (identity.pid != pid) {
    identity.pid = pid;
    identity.start = start_time_of(pid);
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) == 0) identity.host = host;
  }
  return identity;
}

bool process_alive(long pid, const std::string& start) {
  if (pid <= 0) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno != EPERM) return false;
  if (start.empty()) return true;
  const std::string now = start_time_of(pid);
  return now.empty() || now == start;
}

std::string new_writer_token() {
  // Fresh entropy each time: a generator's state would be copied into a forked child.
  std::random_device entropy;
  std::ostringstream out;
  out << std::hex;
  for (int i = 0; i < 4; ++i) out << entropy();
  return out.str();
}

}  // namespace mailroom::detail
