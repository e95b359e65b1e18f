// The bytes under the core's journal in Node (ActorSystemOptions.withJournalDir):
// a folder of files in the core's CRC-framed format. The core owns the format,
// sequence numbers, compaction and recovery; this object only moves bytes for
// it (the JsJournalStorage adapter calls these methods synchronously):
// append, read a range into wasm memory, replace atomically, sync, lock.
// - Reads are bounded ranges (no whole-file strings, any size).
// - One writer per stream: an exclusive lock file "<name>.lock" holding the
//   owner's "<pid> <start-time>" (start-time: field 22 of /proc/<pid>/stat,
//   so a recycled pid is not taken for the owner). A lock whose owner is gone
//   (or an empty file) is stale and taken over, by one process only (see
//   removeIfStale); a live one (another process, or another system of this
//   process) is refused. The native build follows the same protocol and
//   formats (core/src/persistence/writer_lock_file.hpp), so a native and a
//   Node writer refuse each other (tests/js/journal_cross_target.test.mjs).
// - A journal of the old JSON-lines format ("<stream>.jsonl") is read once
//   and rewritten in the core's format (see migrateLegacyJournal).
import { core, runningInNode } from './core_loader.js';
import { JournalFolderError, check } from './errors.js';

// Specifiers kept opaque so browser bundlers (Vite) never try to resolve them.
const nodeModule = (name) => import(/* @vite-ignore */ `node:${name}`);
const fs = runningInNode ? await nodeModule('fs') : null;
const pathModule = runningInNode ? await nodeModule('path') : null;

// Lock files this process holds, by absolute path (shared by every storage).
const heldLocks = new Set();
if (runningInNode) {
  process.once('exit', () => {
    for (const file of heldLocks) {
      try {
        removeIfOurs(file);
      } catch {
        // left behind: stale once we are gone
      }
    }
  });
}

// Removes a lock file we hold; one that no longer holds our stamp is not ours to remove.
function removeIfOurs(file) {
  try {
    if (fs.readFileSync(file, 'utf8') === ownStamp()) fs.unlinkSync(file);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';  // alive, owned by someone else
  }
}

// When `pid` started (clock ticks after boot, /proc/<pid>/stat field 22);
// null where unknown (no /proc, or the process is gone).
function startTimeOf(pid) {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = text.slice(text.lastIndexOf(')') + 2).split(' ')[19];
    return /^\d+$/.test(start ?? '') ? start : null;
  } catch {
    return null;
  }
}
let ownStampText = null;
const ownStamp = () => {
  if (ownStampText === null) {
    const start = runningInNode ? startTimeOf(process.pid) : null;
    ownStampText = `${process.pid}${start === null ? '' : ` ${start}`}\n`;
  }
  return ownStampText;
};

// A lock (or takeover marker) file is created whole: written aside, then
// linked to its name, which fails when the name exists. Created empty and
// written after, a racer could read it empty in between and take it as stale.
function createHolding(file) {
  const aside = `${file}.${process.pid}-${Math.random().toString(36).slice(2)}.new`;
  fs.writeFileSync(aside, ownStamp(), { flag: 'wx' });
  try {
    fs.linkSync(aside, file);
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    if (!NO_LINKS.has(error.code)) throw error;
  } finally {
    fs.unlinkSync(aside);
  }
  // A file system without hard links: created exclusively, then written.
  try {
    fs.writeFileSync(file, ownStamp(), { flag: 'wx' });
    return true;
  } catch (error) {
    if (error.code === 'EEXIST') return false;
    throw error;
  }
}
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

// The owner written in a lock or marker file, { pid, start }: pid NaN when
// empty or unreadable, start null when not written; null when the file is gone.
function ownerOf(file) {
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error.code === 'ENOENT') return null;
    throw error;
  }
  const [pid, start] = text.trim().split(/\s+/);
  return { pid: Number.parseInt(pid, 10), start: /^\d+$/.test(start ?? '') ? start : null };
}

// Left by a process that is gone: a dead pid (a killed process), its pid now
// used by a process started at another time, an empty or unreadable file (an
// older native holder emptied it on release), or our own pid on a file we do
// not hold (an earlier instance of this pid).
function isStale({ pid, start }) {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !processAlive(pid)) return true;
  if (start === null) return false;
  const now = startTimeOf(pid);
  return now !== null && now !== start;
}

const TAKEOVER = '.takeover';
const TAKEOVER_WAIT_MS = 2000;  // how long a takeover by another process is waited for
const MARKER_DEPTH = 3;  // markers of markers left by takers that died mid-takeover
// Node only: a page without cross-origin isolation has no SharedArrayBuffer (and imports this file).
const pauseCell = runningInNode ? new Int32Array(new SharedArrayBuffer(4)) : null;
const pauseMs = (ms) => Atomics.wait(pauseCell, 0, 0, ms);  // lock() is synchronous

// Removes a stale `file` as the only process doing so. Two processes may both
// read the same dead pid; if each then removed the file and created its own,
// the slower one would delete the faster one's live lock and both would write.
// So the removal happens under a marker "<file>.takeover" that only one
// process can create, and the owner is read again under it: while the marker
// is held nobody else removes the file, and a dead owner cannot release it, so
// a file still stale then is still the one removed. A marker whose taker died
// is stale in turn and removed the same way (one level down).
// Returns 'removed', 'gone', 'busy' (another process is taking over) or the
// live pid now holding the file.
function removeIfStale(file, depth) {
  const marker = `${file}${TAKEOVER}`;
  if (!createHolding(marker)) {
    const taker = ownerOf(marker);
    if (taker !== null && isStale(taker) && depth + 1 < MARKER_DEPTH) removeIfStale(marker, depth + 1);
    return 'busy';
  }
  try {
    const owner = ownerOf(file);
    if (owner === null) return 'gone';
    if (!isStale(owner)) return owner.pid;
    try {
      fs.unlinkSync(file);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    return 'removed';
  } finally {
    fs.unlinkSync(marker);
  }
}

// The file name the core gives a stream (FileJournal::file_name), decoded back
// to the stream id: '%XX' escapes are reversible (long ids are hashed: null).
function streamOf(name) {
  if (!name.endsWith('.journal') || name.includes('~')) return null;
  const escaped = name.slice(0, -'.journal'.length);
  const bytes = [];
  for (let i = 0; i < escaped.length; i += 1) {
    if (escaped[i] === '%' && i + 2 < escaped.length && /^[0-9A-F]{2}$/.test(escaped.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(escaped.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(escaped.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

// Lines of a file read in bounded chunks (no whole-file string).
function* linesOf(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    let carry = Buffer.alloc(0);
    let position = 0;
    for (;;) {
      const n = fs.readSync(fd, chunk, 0, chunk.length, position);
      if (n === 0) break;
      position += n;
      let data = Buffer.concat([carry, chunk.subarray(0, n)]);
      let start = 0;
      for (let end = data.indexOf(10, start); end >= 0; end = data.indexOf(10, start)) {
        yield { line: data.toString('utf8', start, end), complete: true };
        start = end + 1;
      }
      carry = Buffer.from(data.subarray(start));
      data = null;
    }
    if (carry.length > 0) yield { line: carry.toString('utf8'), complete: false };
  } finally {
    fs.closeSync(fd);
  }
}

export class NodeJournalStorage {
  constructor(dir) {
    if (!fs) throw new TypeError('withJournalDir needs Node (the browser journal is IndexedDB)');
    this.dir = pathModule.resolve(dir);
    let stat = null;
    try {
      stat = fs.statSync(this.dir);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    if (stat && !stat.isDirectory()) {
      throw new JournalFolderError(`journal folder ${this.dir} is an existing file, not a folder`, this.dir);
    }
    try {
      fs.mkdirSync(this.dir, { recursive: true });
    } catch (error) {
      throw new JournalFolderError(`cannot create journal folder ${this.dir}: ${error.message}`, this.dir);
    }
    this._fds = new Map();  // name → fd opened for appending
    this._checked = new Set();  // names already checked for an old JSON-lines journal
    this._unsyncedEntries = false;  // a file was opened (maybe created) since the folder's last sync
  }

  location(name) {
    return pathModule.join(this.dir, name);
  }

  // A journal of the old JSON-lines format ({"s": sequence, "p": payload} per
  // line; a negative s marks the sequence kept by a compaction) is converted
  // once into the core's format before the stream is first looked at. The old
  // file is kept as "<file>.migrated"; unreadable lines go to the side file.
  _migrate(name) {
    const stream = streamOf(name);
    if (stream === null) return;
    const legacy = pathModule.join(this.dir, `${encodeURIComponent(stream)}.jsonl`);
    if (!fs.existsSync(legacy) || fs.existsSync(this.location(name))) return;
    const records = [];
    const unreadable = [];
    let base = 0;
    let last = 0;
    for (const { line, complete } of linesOf(legacy)) {
      let record = null;
      try {
        record = complete ? JSON.parse(line) : null;
      } catch {
        record = null;
      }
      const ok = record && Number.isSafeInteger(record.s) && typeof record.p === 'string';
      if (!ok || Math.abs(record.s) <= last) {
        unreadable.push(line);
      } else if (record.s < 0) {
        base = -record.s;
        last = base;
      } else {
        records.push({ sequence: record.s, payload: record.p });
        last = record.s;
      }
    }
    if (records.length > 0) base = Math.min(base, records[0].sequence - 1);
    const { bytes } = check(core.journalEncodeFile(base, records));
    if (unreadable.length > 0) {
      fs.appendFileSync(`${this.location(name)}.damaged`,
        `mailroom-journal-damage file=${name} from=${legacy} lines=${unreadable.length} reason=unreadable JSON line\n${unreadable.join('\n')}\n`);
    }
    this.replace(name, bytes);
    fs.renameSync(legacy, `${legacy}.migrated`);
  }

  size(name) {
    if (!this._checked.has(name)) {
      this._checked.add(name);
      this._migrate(name);
    }
    try {
      return fs.statSync(this.location(name)).size;
    } catch (error) {
      if (error.code === 'ENOENT') return 0;
      throw error;
    }
  }

  // Fills `into` (a view of wasm memory) from `offset`; returns the bytes read.
  read(name, offset, into) {
    let fd;
    try {
      fd = fs.openSync(this.location(name), 'r');
    } catch (error) {
      if (error.code === 'ENOENT') return 0;
      throw error;
    }
    try {
      let got = 0;
      while (got < into.length) {
        const n = fs.readSync(fd, into, got, into.length - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      return got;
    } finally {
      fs.closeSync(fd);
    }
  }

  _appendFd(name) {
    let fd = this._fds.get(name);
    if (fd === undefined) {
      fd = fs.openSync(this.location(name), 'a');
      this._fds.set(name, fd);
      this._unsyncedEntries = true;  // the file may be new: sync() makes its entry durable
    }
    return fd;
  }

  // A rename or a new file is durable only once the folder's entry is (Linux
  // and macOS allow fsync on a folder opened read-only; Windows does not).
  _syncFolder() {
    let fd;
    try {
      fd = fs.openSync(this.dir, 'r');
    } catch (error) {
      if (error.code === 'EISDIR' || error.code === 'EPERM') return;
      throw error;
    }
    try {
      fs.fsyncSync(fd);
    } catch (error) {
      if (error.code !== 'EINVAL' && error.code !== 'EPERM' && error.code !== 'EISDIR') throw error;
    } finally {
      fs.closeSync(fd);
    }
    this._unsyncedEntries = false;
  }

  _closeFd(name) {
    const fd = this._fds.get(name);
    if (fd === undefined) return;
    this._fds.delete(name);
    fs.closeSync(fd);
  }

  append(name, bytes) {
    const fd = this._appendFd(name);
    let done = 0;
    while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
  }

  // Write aside, sync, rename over, sync the folder: a crash leaves the old file or the new one.
  replace(name, bytes) {
    const file = this.location(name);
    const temp = `${file}.tmp`;
    const fd = fs.openSync(temp, 'w');
    try {
      let done = 0;
      while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    this._closeFd(name);
    fs.renameSync(temp, file);
    this._syncFolder();
  }

  // Written and on the disk: fdatasync (the data and the size, not the times).
  sync(name) {
    const fd = this._fds.get(name);
    if (fd !== undefined) fs.fdatasyncSync(fd);
    if (this._unsyncedEntries) this._syncFolder();
  }

  // null when the lock is ours now, else who holds it.
  lock(name) {
    const file = `${this.location(name)}.lock`;
    if (heldLocks.has(file)) return 'another system of this process';
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    let removed = 0;
    for (;;) {
      if (createHolding(file)) {
        heldLocks.add(file);
        return null;
      }
      const owner = ownerOf(file);
      // null: released meanwhile, try again.
      if (owner !== null) {
        if (!isStale(owner)) return `process ${owner.pid}`;
        const outcome = removeIfStale(file, 0);
        if (typeof outcome === 'number') return `process ${outcome}`;
        if (outcome === 'removed' && ++removed >= 3) return 'another process (the lock file keeps coming back)';
        if (outcome === 'busy') pauseMs(1);
      }
      if (Date.now() > deadline) {
        return `another process (it is taking over the stale lock; ${file}${TAKEOVER} stays)`;
      }
    }
  }

  unlock(name) {
    const file = `${this.location(name)}.lock`;
    if (!heldLocks.delete(file)) return;
    this._closeFd(name);
    removeIfOurs(file);
  }
}
