// mailroom-dlq: reads a dead-letter queue's journal (what a system with the
// "persistent" store wrote) and answers "what did we drop?" without running
// the system and without ever writing to the journal.
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "database_source.hpp"
#include "journal_source.hpp"
#include "mailroom/dead_letter_queue_settings.hpp"
#include "mailroom/version.hpp"
#include "time_text.hpp"

namespace {

using namespace mailroom::dlq;

constexpr int kOk = 0;
constexpr int kFailed = 1;   // the journal or the letter is not there, output not writable
constexpr int kUsage = 2;    // the command line is wrong
constexpr int kDamaged = 3;  // done, but the journal is damaged (reported on stderr)

constexpr std::string_view kHelp =
    R"(usage: mailroom-dlq <command> <journal-dir or database URL> [options]

Reads the dead-letter queue journal a Mailroom system writes with the
"persistent" store (ActorSystemOptions::with_journal_dir, HOCON
mailroom.journal.dir, or withJournalDir in Node). Read-only: the journal is
never repaired, compacted or changed, even while a system is using it.

commands:
  list    the letters, newest first, as a table (or --json)
            --recipient PATH   a path and its subtree (/user/orders, or mailroom://shop/user/orders)
            --since TIME       epoch ms, UTC 2026-12-01 / 2026-12-01T18:00[:00][Z], or an age: 90s 30m 12h 7d
            --limit N          at most N letters
  show ID the letter with that id, its payload as pretty JSON
  export  every letter: --format jsonl (default; one per line, oldest first) or
          --format panel (the DevTools panel's export file, importable there);
          --output FILE instead of stdout
  stats   counts by recipient and type, journal records, tombstones, damage (or --json)

options for every command:
  --system NAME          the system whose queue to read (persistence id mailroom-dead-letters-NAME)
  --persistence-id ID    a queue configured with its own persistence id
                         (without either: the folder's only dead-letter queue)
  --max-replays N        the queue's max-replays, for the "quarantined" flag (default 3)
  -h, --help             this text;  --version  the Mailroom version

A database journal (docs/databases.md) is read the same way, given by URL
instead of a folder: sqlite:/path/file.db or postgresql://... (read-only: no
schema is created, no lease taken). There `list` without --system lists every
dead-letter stream of the database, a section per stream (--json: one array,
each letter with its "stream").

exit codes: 0 done; 1 no such folder, journal or letter, or output not writable;
            2 bad command line; 3 done, but the journal is damaged: what is readable
              was used and the damage is described on stderr
)";

struct UsageError {
  std::string message;
};

struct Command {
  std::string name;
  std::string directory;
  std::optional<std::string> persistence_id;
  std::uint32_t max_replays = mailroom::DeadLetterQueueSettings{}.max_replays;
  ListFilter filter;
  bool json = false;
  std::optional<std::uint64_t> id;
  std::string format = "jsonl";
  std::optional<std::string> output;
};

std::int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

template <class T>
T parse_count(std::string_view flag, std::string_view text) {
  T value{};
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw UsageError{std::string(flag) + " needs a non-negative integer, not '" +
                     std::string(text) + "'"};
  }
  return value;
}

Command parse(const std::vector<std::string_view>& args) {
  Command c;
  std::vector<std::string_view> positional;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= args.size()) throw UsageError{std::string(arg) + " needs a value"};
      return args[++i];
    };
    const bool listing = c.name == "list";
    if (arg == "--system") {
      const std::string_view name = value();
      if (name.empty()) throw UsageError{"--system needs a system name"};
      c.persistence_id = mailroom::DeadLetterQueueSettings::default_persistence_id(name);
    } else if (arg == "--persistence-id") {
      c.persistence_id = std::string(value());
      if (c.persistence_id->empty()) throw UsageError{"--persistence-id needs an id"};
    } else if (arg == "--max-replays") {
      c.max_replays = parse_count<std::uint32_t>(arg, value());
    } else if (arg == "--json" && (listing || c.name == "stats")) {
      c.json = true;
    } else if (arg == "--recipient" && listing) {
      c.filter.recipient = std::string(value());
      if (c.filter.recipient->empty() || (c.filter.recipient->front() != '/' &&
                                          c.filter.recipient->rfind("mailroom://", 0) != 0)) {
        throw UsageError{
            "--recipient needs an actor path (/user/orders or mailroom://shop/user/orders), not '" +
            *c.filter.recipient + "'"};
      }
    } else if (arg == "--since" && listing) {
      const std::string_view text = value();
      c.filter.since_ms = parse_since(text, now_ms());
      if (!c.filter.since_ms) {
        throw UsageError{"--since: '" + std::string(text) +
                         "' is not epoch ms, a UTC date(-time) or an age like 12h"};
      }
    } else if (arg == "--limit" && listing) {
      c.filter.limit = parse_count<std::size_t>(arg, value());
    } else if (arg == "--format" && c.name == "export") {
      c.format = std::string(value());
      if (c.format != "jsonl" && c.format != "panel") {
        throw UsageError{"--format is jsonl or panel, not '" + c.format + "'"};
      }
    } else if (arg == "--output" && c.name == "export") {
      c.output = std::string(value());
    } else if (arg.size() > 1 && arg[0] == '-') {
      throw UsageError{"unknown option '" + std::string(arg) + "'" +
                       (c.name.empty() ? "" : " for " + c.name)};
    } else if (c.name.empty()) {
      c.name = std::string(arg);
      if (c.name != "list" && c.name != "show" && c.name != "export" && c.name != "stats") {
        throw UsageError{"unknown command '" + c.name + "' (list, show, export, stats)"};
      }
    } else {
      positional.push_back(arg);
    }
  }
  if (c.name.empty()) throw UsageError{"no command given"};
  const std::size_t wanted = c.name == "show" ? 2 : 1;
  if (positional.size() < wanted) {
    throw UsageError{c.name + " needs " +
                     (c.name == "show" ? "a journal folder and a letter id" : "a journal folder")};
  }
  if (positional.size() > wanted) {
    throw UsageError{"unexpected argument '" + std::string(positional[wanted]) + "'"};
  }
  c.directory = std::string(positional[0]);
  if (c.name == "show") c.id = parse_count<std::uint64_t>("the letter id", positional[1]);
  return c;
}

void report_damage(const ReadJournal& journal) {
  const auto& c = journal.contents;
  if (c.damaged) {
    std::cerr << "mailroom-dlq: warning: " << journal.stream.path << " is damaged at byte "
              << c.damaged_at_offset << ": " << c.damage << " (the " << c.records
              << " records before it were read; the journal was not changed)\n";
  }
  for (const auto& what : c.unreadable) {
    std::cerr << "mailroom-dlq: warning: " << journal.stream.path << ": " << what << " (skipped)\n";
  }
}

int run(const Command& c) {
  const bool database = is_database_url(c.directory);
  if (database && c.name == "list" && !c.persistence_id) {
    const bool damaged =
        list_database_streams(c.directory, c.filter, c.json, c.max_replays, std::cout);
    std::cout.flush();
    if (!std::cout) throw SourceError("cannot write to standard output");
    return damaged ? kDamaged : kOk;
  }
  ReadJournal journal = database ? read_database_queue(c.directory, c.persistence_id)
                                 : read_queue(c.directory, c.persistence_id);
  journal.max_replays = c.max_replays;
  const bool damaged = journal.contents.damaged || !journal.contents.unreadable.empty();
  report_damage(journal);
  if (c.name == "list") {
    list_letters(journal, c.filter, c.json, std::cout);
  } else if (c.name == "show") {
    if (!show_letter(journal, *c.id, std::cout)) {
      std::cerr << "mailroom-dlq: no dead letter with id " << *c.id << " in " << journal.stream.path
                << " (" << journal.contents.letters.size()
                << " letters; see `mailroom-dlq list`)\n";
      return kFailed;
    }
  } else if (c.name == "export") {
    if (c.output) {
      std::ofstream file(*c.output, std::ios::binary | std::ios::trunc);
      if (!file) throw SourceError("cannot write " + *c.output);
      export_letters(journal, c.format, now_ms(), file);
      file.flush();
      if (!file) throw SourceError("cannot write " + *c.output);
    } else {
      export_letters(journal, c.format, now_ms(), std::cout);
    }
  } else {
    print_stats(journal, c.json, std::cout);
  }
  std::cout.flush();
  if (!std::cout) throw SourceError("cannot write to standard output");
  return damaged ? kDamaged : kOk;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::string_view arg : args) {
    if (arg == "-h" || arg == "--help") {
      std::cout << kHelp;
      return kOk;
    }
    if (arg == "--version") {
      std::cout << "mailroom-dlq " << mailroom::version() << '\n';
      return kOk;
    }
  }
  try {
    return run(parse(args));
  } catch (const UsageError& e) {
    std::cerr << "mailroom-dlq: " << e.message << "\n(mailroom-dlq --help for usage)\n";
    return kUsage;
  } catch (const SourceError& e) {
    std::cerr << "mailroom-dlq: " << e.what() << '\n';
    return kFailed;
  } catch (const std::exception& e) {
    std::cerr << "mailroom-dlq: " << e.what() << '\n';
    return kFailed;
  }
}
