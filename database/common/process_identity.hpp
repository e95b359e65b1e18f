// Who this process is, for a writer's lease that others can check: the pid
// with its start time (a pid the kernel gave again to another process does
// not count as alive) and the host name.
#pragma once

#include <string>

namespace mailroom::detail {

struct ProcessIdentity {
  long pid = 0;
  std::string start;  // /proc/<pid>/stat start time in clock ticks, "" if unknown
  std::string host;
};

const ProcessIdentity& this_process();
// The process is running on this host (start "" matches any start time).
bool process_alive(long pid, const std::string& start);
// A token no other journal object of any process has (random, 128 bits as hex).
std::string new_writer_token();

}  // namespace mailroom::detail
