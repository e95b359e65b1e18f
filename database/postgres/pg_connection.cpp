#include "pg_connection.hpp"

#include <unistd.h>

#include <cstring>
#include <optional>
#include <stdexcept>

#include "../common/process_identity.hpp"
#include "mailroom/journal_database_errors.hpp"

namespace mailroom::detail {
namespace {

// SQLSTATEs worth a retry: the connection or the server went away, or the
// transaction lost a race it can win next time.
bool transient(const std::optional<std::string>& state) {
  if (!state) return true;  // no server answer at all: the connection broke
  const std::string& s = *state;
  return s.rfind("08", 0) == 0 || s.rfind("53", 0) == 0 || s.rfind("57P", 0) == 0 || s == "40001" ||
         s == "40P01";
}

std::string trimmed(const char* text) {
  std::string out = text ? text : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

}  // namespace

PgConnection::PgConnection(std::string conninfo, std::string location)
    : conninfo_(std::move(conninfo)), location_(std::move(location)) {}

PgConnection::~PgConnection() {
  drop();
}

bool PgConnection::connected() const {
  return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK;
}

void PgConnection::drop() {
  if (conn_ != nullptr) PQfinish(conn_);
  conn_ = nullptr;
}

bool PgConnection::ensure() {
  if (connected()) return false;
  drop();
  conn_ = PQconnectdb(conninfo_.c_str());
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string why = trimmed(PQerrorMessage(conn_));
    drop();
    throw JournalUnavailableError(location_, "cannot connect: " + why);
  }
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);  // NOTICEs are not errors
  // Who holds a stream's lock, as pg_stat_activity shows it to the next writer.
  const ProcessIdentity& me = this_process();
  std::string name = "mailroom pid " + std::to_string(me.pid) + " on " + me.host;
  exec("SELECT set_config('application_name', $1, false)", {PgParam::text(name)},
       "naming the session");
  return true;
}

PgResult PgConnection::exec(const std::string& sql, const std::vector<PgParam>& params,
                            const std::string& what, bool binary_result) {
  if (!connected()) throw JournalUnavailableError(location_, what + ": not connected");
  std::vector<const char*> values(params.size());
  std::vector<int> lengths(params.size());
  std::vector<int> formats(params.size());
  for (std::size_t i = 0; i < params.size(); ++i) {
    values[i] = params[i].value ? params[i].value->data() : nullptr;
    lengths[i] = params[i].value ? static_cast<int>(params[i].value->size()) : 0;
    formats[i] = params[i].binary ? 1 : 0;
  }
  // Without parameters: the simple protocol, which also runs several statements (migrations).
  PGresult* result =
      params.empty() && !binary_result
          ? PQexec(conn_, sql.c_str())
          : PQexecParams(conn_, sql.c_str(), static_cast<int>(params.size()), nullptr,
                         values.data(), lengths.data(), formats.data(), binary_result ? 1 : 0);
  const ExecStatusType status = result ? PQresultStatus(result) : PGRES_FATAL_ERROR;
  if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) fail(result, what);
  return PgResult(result);
}

void PgConnection::fail(PGresult* result, const std::string& what) {
  // Copied out: both pointers die with PQclear below.
  const char* field = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const std::optional<std::string> state = field ? std::optional<std::string>(field) : std::nullopt;
  std::string message = trimmed(result ? PQresultErrorMessage(result) : PQerrorMessage(conn_));
  if (message.empty()) message = trimmed(PQerrorMessage(conn_));
  PQclear(result);
  const bool broken = PQstatus(conn_) != CONNECTION_OK;
  if (broken || transient(state)) {
    if (broken) drop();
    throw JournalUnavailableError(location_, what + ": " + message);
  }
  throw std::runtime_error("journal database " + location_ + ": " + what + ": " + message);
}

void PgConnection::rollback() noexcept {
  if (connected()) PQclear(PQexec(conn_, "ROLLBACK"));
}

std::int64_t pg_int8(const PGresult* result, int row, int column) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(PQgetvalue(result, row, column));
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | bytes[i];
  return static_cast<std::int64_t>(v);
}

}  // namespace mailroom::detail
