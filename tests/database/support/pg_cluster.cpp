#include "support/pg_cluster.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace mailroom::testing {
namespace {

std::string bin_dir() {
  const char* env = std::getenv("MAILROOM_PG_BIN");
  return env && *env ? env : "/usr/lib/postgresql/15/bin";
}

int free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  ::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  ::getsockname(s, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  ::close(s);
  return port;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

}  // namespace

std::string PgCluster::unavailable_reason() {
  const std::string bin = bin_dir();
  for (const char* tool : {"initdb", "pg_ctl", "postgres"}) {
    if (::access((bin + "/" + tool).c_str(), X_OK) != 0) {
      return "the PostgreSQL server binaries are missing (" + bin + "/" + tool +
             "): install Debian postgresql-15 (scripts/bootstrap.sh) or set MAILROOM_PG_BIN";
    }
  }
  if (::geteuid() == 0 && ::getpwnam("postgres") == nullptr) {
    return "running as root without a 'postgres' user to run the server as";
  }
  return "";
}

std::string PgCluster::run_as_server_user(const std::string& command) const {
  return ::geteuid() == 0 ? "runuser -u postgres -- " + command : command;
}

PgCluster::PgCluster() : bin_(bin_dir()) {
  std::string pattern = (std::filesystem::temp_directory_path() / "mailroom-pg-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  if (::geteuid() == 0) {
    const passwd* pg = ::getpwnam("postgres");
    if (pg == nullptr || ::chown(dir_.c_str(), pg->pw_uid, pg->pw_gid) != 0) {
      throw std::runtime_error("cannot hand " + dir_ + " to the postgres user");
    }
  }
  const std::string init = run_as_server_user(bin_ + "/initdb -D " + dir_ +
                                              "/data -U postgres -A trust -E UTF8 --no-sync "
                                              "--no-instructions > " +
                                              dir_ + "/initdb.log 2>&1");
  if (std::system(init.c_str()) != 0) {
    throw std::runtime_error("initdb failed:\n" + slurp(dir_ + "/initdb.log"));
  }
  port_ = free_port();
  start();
}

// Never throws (a throw from a destructor is std::terminate, and during a
// failing test's unwinding it would hide the failure): a server that cannot
// be stopped is reported on stderr with pg_ctl's words.
PgCluster::~PgCluster() {
  if (running_) {
    try {
      kill();
    } catch (const std::exception& e) {
      std::cerr << "PgCluster: the test server in " << dir_ << " could not be stopped: " << e.what()
                << "\n";
    }
  }
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

std::string PgCluster::data_dir() const {
  return dir_ + "/data";
}

std::string PgCluster::url() const {
  return "postgresql://postgres@127.0.0.1:" + std::to_string(port_) + "/postgres?connect_timeout=5";
}

void PgCluster::start() {
  // fsync off: a test server's data only has to survive the server process
  // dying (the kernel keeps what was written), not the machine.
  const std::string cmd = run_as_server_user(
      bin_ + "/pg_ctl -D " + dir_ + "/data -l " + dir_ + "/server.log -w -t 60 -o \"-p " +
      std::to_string(port_) + " -k " + dir_ +
      " -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off\" start > " + dir_ +
      "/pg_ctl.log 2>&1");
  if (std::system(cmd.c_str()) != 0) {
    throw std::runtime_error("pg_ctl start failed:\n" + slurp(dir_ + "/pg_ctl.log") +
                             slurp(dir_ + "/server.log"));
  }
  running_ = true;
}

void PgCluster::kill() {
  const std::string cmd = run_as_server_user(
      bin_ + "/pg_ctl -D " + dir_ + "/data -m immediate -w stop > " + dir_ + "/pg_ctl.log 2>&1");
  if (std::system(cmd.c_str()) != 0) {
    throw std::runtime_error("pg_ctl stop failed:\n" + slurp(dir_ + "/pg_ctl.log"));
  }
  running_ = false;
}

}  // namespace mailroom::testing
