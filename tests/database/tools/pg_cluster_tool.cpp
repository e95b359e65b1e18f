// A throw-away PostgreSQL server for tests outside the ctest binaries (the
// browser test tests/browser/shared_store.test.mjs spawns it): the same
// support/pg_cluster.hpp they use, so there is one way to start a server.
//   pg_cluster_tool          starts one, prints its connection URL on stdout,
//                            keeps it up until stdin closes or SIGTERM/SIGINT,
//                            then stops it and removes its folder
//   pg_cluster_tool --check  prints why no server can start here and exits 2,
//                            or exits 0 when one can
// Exit status: 0 stopped cleanly, 1 the server failed to start, 2 unavailable.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "support/pg_cluster.hpp"

namespace {

volatile std::sig_atomic_t stop_requested = 0;
void on_signal(int) {
  stop_requested = 1;
}

// Blocks until stdin reaches its end (or fails) or a stop signal arrives. The
// signals stay blocked except inside ppoll, so none is missed between checks.
void wait_for_stop(const sigset_t& unblocked) {
  char buf[256];
  while (!stop_requested) {
    pollfd in{STDIN_FILENO, POLLIN, 0};
    const int ready = ::ppoll(&in, 1, nullptr, &unblocked);
    if (ready < 0) continue;                                 // EINTR: the flag says whether to stop
    if (::read(STDIN_FILENO, buf, sizeof buf) <= 0) return;  // closed: stop
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string arg = argc > 1 ? argv[1] : "";
  if (argc > 2 || (!arg.empty() && arg != "--check")) {
    std::cerr << "usage: pg_cluster_tool [--check]\n";
    return 64;
  }
  const std::string why = mailroom::testing::PgCluster::unavailable_reason();
  if (!why.empty()) {
    std::cerr << why << "\n";
    return 2;
  }
  if (arg == "--check") return 0;

  sigset_t stops, previous;
  sigemptyset(&stops);
  sigaddset(&stops, SIGTERM);
  sigaddset(&stops, SIGINT);
  ::sigprocmask(SIG_BLOCK, &stops, &previous);
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGTERM, &action, nullptr);
  ::sigaction(SIGINT, &action, nullptr);
  ::signal(SIGPIPE, SIG_IGN);  // a reader gone before the URL is printed is not a crash

  std::optional<mailroom::testing::PgCluster> cluster;
  try {
    cluster.emplace();
  } catch (const std::exception& e) {
    std::cerr << "pg_cluster_tool: " << e.what() << "\n";
    return 1;
  }
  std::cout << cluster->url() << std::endl;
  sigset_t unblocked = previous;
  sigdelset(&unblocked, SIGTERM);
  sigdelset(&unblocked, SIGINT);
  wait_for_stop(unblocked);
  cluster.reset();  // pg_ctl stop, folder removed
  return 0;
}
