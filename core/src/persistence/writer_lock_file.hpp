// The writer lock of one journal stream, a file "<stream file>.lock", with the
// protocol and formats the Node storage follows too (wasm/js/node_journal.js),
// so a native and a Node writer exclude each other both ways:
// - The holder's stamp "<pid> <start-time>\n" is the file's whole content
//   from the moment it exists (written aside, then linked to the name, which
//   fails when the name exists). start-time is field 22 of /proc/<pid>/stat;
//   it tells a live holder from an unrelated process that got its pid later.
// - A lock whose owner is gone (dead pid, other start time, empty/unreadable
//   content) is stale. It is removed only under "<lock>.takeover", created
//   the same way (one taker wins), after re-reading the owner under it.
// - Released by removing the file (only while it holds our stamp).
// Native only (no other processes under Emscripten).
#pragma once

#include <optional>
#include <string>

namespace mailroom::writer_lock {

// This process's stamp, as written in a lock file it holds.
std::string own_stamp();

// Takes the lock file `path`: std::nullopt when it is ours now, else a phrase
// naming who holds it ("process 123", "another process (...)").
std::optional<std::string> take(const std::string& path);

// Removes `path` when it still holds our stamp.
void release(const std::string& path);

}  // namespace mailroom::writer_lock
