// A thin RAII layer over libpq: results freed on scope exit, parameters as
// text (or bytes for bytea), and the error mapping (connection loss, server
// shutting down, too many clients, serialisation failures ->
// JournalUnavailableError, retried; anything else -> a runtime_error naming
// the server and the statement's job).
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mailroom::detail {

struct PgResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using PgResult = std::unique_ptr<PGresult, PgResultDeleter>;

// One parameter: null, text, or raw bytes (binary format, for bytea).
struct PgParam {
  std::optional<std::string> value;
  bool binary = false;
  static PgParam null() { return {}; }
  static PgParam text(std::string v) { return {std::move(v), false}; }
  static PgParam bytes(std::string v) { return {std::move(v), true}; }
  static PgParam number(std::int64_t v) { return {std::to_string(v), false}; }
};

class PgConnection {
 public:
  PgConnection(std::string conninfo, std::string location);
  ~PgConnection();
  PgConnection(const PgConnection&) = delete;
  PgConnection& operator=(const PgConnection&) = delete;

  // Connects if not connected (or the connection broke); true when this call
  // made a new connection (session state such as advisory locks is gone).
  bool ensure();
  void drop();  // forget the connection (after an error that broke it)
  bool connected() const;

  // Runs one statement; throws on any result but tuples/command-ok.
  PgResult exec(const std::string& sql, const std::vector<PgParam>& params, const std::string& what,
                bool binary_result = false);
  PgResult exec(const std::string& sql, const std::string& what) { return exec(sql, {}, what); }

  // Ends a failed transaction (nothing when the connection is gone with it).
  void rollback() noexcept;

  const std::string& location() const noexcept { return location_; }

 private:
  [[noreturn]] void fail(PGresult* result, const std::string& what);

  std::string conninfo_;
  std::string location_;
  PGconn* conn_ = nullptr;
};

// The big-endian int8 of a binary-format result column.
std::int64_t pg_int8(const PGresult* result, int row, int column);

}  // namespace mailroom::detail
