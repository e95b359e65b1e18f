// A throw-away PostgreSQL server for one test binary: initdb + pg_ctl in a
// temporary folder, listening on a free loopback port and a socket in that
// folder, stopped and removed at the end. As root the server runs as the
// "postgres" user (initdb refuses root). The binaries come from
// $MAILROOM_PG_BIN or /usr/lib/postgresql/15/bin (Debian postgresql-15).
#pragma once

#include <optional>
#include <string>

namespace mailroom::testing {

class PgCluster {
 public:
  // Why a server cannot be started here ("" when it can): names what is missing.
  static std::string unavailable_reason();

  PgCluster();   // initdb + start; throws std::runtime_error with the server's log
  ~PgCluster();  // stops the server; never throws (a failure is reported on stderr)
  PgCluster(const PgCluster&) = delete;
  PgCluster& operator=(const PgCluster&) = delete;

  std::string url() const;  // postgresql://postgres@127.0.0.1:<port>/postgres
  int port() const { return port_; }
  std::string data_dir() const;  // the server's data folder (postmaster.pid is there)
  // The server dies at once (pg_ctl stop -m immediate: no checkpoint, no
  // goodbye to clients; crash recovery at the next start).
  void kill();
  void start();

 private:
  std::string run_as_server_user(const std::string& command) const;
  std::string dir_;
  std::string bin_;
  int port_ = 0;
  bool running_ = false;
};

}  // namespace mailroom::testing
