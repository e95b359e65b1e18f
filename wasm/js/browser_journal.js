// The bytes under the core's journal in the browser: IndexedDB. The core owns
// the format (CRC frames, sequence numbers, compaction, recovery); this object
// only moves bytes for it, like node_journal.js does over node:fs. The core
// calls synchronously and IndexedDB answers asynchronously, so:
// - Every journal file of the origin is loaded at import (top-level await)
//   into a list of chunks (at most CHUNK_BYTES each, never one big buffer);
//   read() copies a range out of those chunks into wasm memory.
// - append() and replace() change the chunks at once and queue the same change
//   for IndexedDB, one transaction per change, in order: an append adds chunk
//   records, a replace deletes the file's records and writes the new ones in
//   one transaction (atomic: a crash leaves the old file or the new one).
//   persistBrowserJournal() resolves once everything queued is committed.
// - One writer per stream across tabs: a Web Lock per file. The core asks
//   synchronously, so lock() refuses what this page knows is held (another
//   system of this page; another tab's lock, from navigator.locks.query() at
//   import and the tabs' "held"/"released" messages on a BroadcastChannel)
//   and otherwise claims the file and requests the Web Lock. Nothing of the
//   file is written before the Web Lock is granted; if two tabs claim at the
//   same instant, the loser's writes are never written and its next write
//   fails with a JournalLockedError (never a merge).
// - A file another tab released is loaded afresh before this page may lock it.
// - The journal folder of the old build (Emscripten's IDBFS, database
//   "/mailroom/journal") is copied over once.
// In Node this module does nothing (the Node journal is node_journal.js).
import { core, runningInNode } from './core_loader.js';
import { JournalLockedError } from './errors.js';

export const BROWSER_JOURNAL_DIR = '/mailroom/journal';
const BROWSER_SYNC_WITHIN_MS = 250;
const DB_NAME = 'mailroom-journal';
const STORE = 'chunks';  // key [file, index] → Uint8Array of at most CHUNK_BYTES
const CHUNK_BYTES = 1 << 20;
const LOCK_PREFIX = 'mailroom-journal:';
const CHANNEL = 'mailroom-journal-locks';

const haveIndexedDb = !runningInNode && typeof indexedDB !== 'undefined';

const request = (r) => new Promise((resolve, reject) => {
  r.onsuccess = () => resolve(r.result);
  r.onerror = () => reject(r.error);
});
const done = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = () => reject(tx.error);
  tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
});
const fileRange = (file) => IDBKeyRange.bound([file, 0], [file, Infinity]);

function openDatabase() {
  const r = indexedDB.open(DB_NAME, 1);
  r.onupgradeneeded = () => r.result.createObjectStore(STORE);
  return request(r);
}

// Bytes split into chunks of at most CHUNK_BYTES (copied: `bytes` may view wasm memory).
function chunksOf(bytes) {
  const out = [];
  for (let at = 0; at < bytes.length; at += CHUNK_BYTES) out.push(bytes.slice(at, at + CHUNK_BYTES));
  return out;
}

// One file in memory: its chunks and where each begins.
class MemoryFile {
  constructor(chunks = []) {
    this.chunks = [];
    this.starts = [];
    this.size = 0;
    this.next = 0;  // the index of the next chunk record in IndexedDB
    for (const chunk of chunks) this.push(chunk);
  }

  push(chunk) {
    this.starts.push(this.size);
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.next += 1;
  }

  // Copies up to into.length bytes from offset; returns how many.
  read(offset, into) {
    if (offset >= this.size) return 0;
    let lo = 0;
    let hi = this.chunks.length - 1;
    while (lo < hi) {  // the last chunk starting at or before offset
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    let got = 0;
    for (let i = lo; i < this.chunks.length && got < into.length; i += 1) {
      const from = i === lo ? offset - this.starts[i] : 0;
      const piece = this.chunks[i].subarray(from, from + (into.length - got));
      into.set(piece, got);
      got += piece.length;
    }
    return got;
  }
}

async function loadFiles(db, only) {
  const files = new Map();
  const tx = db.transaction(STORE, 'readonly');
  const cursor = tx.objectStore(STORE).openCursor(only === undefined ? undefined : fileRange(only));
  await new Promise((resolve, reject) => {
    cursor.onerror = () => reject(cursor.error);
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) return resolve();
      const [file, index] = c.key;
      let f = files.get(file);
      if (!f) files.set(file, (f = new MemoryFile()));
      f.push(new Uint8Array(c.value));
      f.next = index + 1;
      c.continue();
    };
  });
  return files;
}

// The old build kept the core's folder on IDBFS (one record per path with
// { contents }): copy its journal files once, if our database has none.
async function migrateIdbfs(db, files) {
  if (files.size > 0 || typeof indexedDB.databases !== 'function') return;
  const names = (await indexedDB.databases()).map((d) => d.name);
  if (!names.includes(BROWSER_JOURNAL_DIR)) return;
  const old = await request(indexedDB.open(BROWSER_JOURNAL_DIR));
  try {
    if (!old.objectStoreNames.contains('FILE_DATA')) return;
    const tx = old.transaction('FILE_DATA', 'readonly');
    const entries = [];
    const cursor = tx.objectStore('FILE_DATA').openCursor();
    await new Promise((resolve, reject) => {
      cursor.onerror = () => reject(cursor.error);
      cursor.onsuccess = () => {
        const c = cursor.result;
        if (!c) return resolve();
        const path = String(c.key);
        if (/\.journal(\.damaged)?$/.test(path) && c.value?.contents) {
          entries.push([path, new Uint8Array(c.value.contents)]);
        }
        c.continue();
      };
    });
    if (entries.length === 0) return;
    const write = db.transaction(STORE, 'readwrite');
    for (const [path, bytes] of entries) {
      const f = new MemoryFile(chunksOf(bytes));
      f.chunks.forEach((chunk, i) => write.objectStore(STORE).put(chunk, [path, i]));
      files.set(path, f);
    }
    await done(write);
  } finally {
    old.close();
  }
}

export class BrowserJournalStorage {
  constructor(db, files, dir = BROWSER_JOURNAL_DIR) {
    this._db = db;
    this._files = files;  // shared by every storage of the page: path → MemoryFile
    this.dir = dir.replace(/\/+$/, '') || '/';
  }

  // The storage of another folder over the same database and page state.
  withDir(dir) {
    return new BrowserJournalStorage(this._db, this._files, dir);
  }

  location(name) {
    return `${this.dir === '/' ? '' : this.dir}/${name}`;
  }

  size(name) {
    return this._files.get(this.location(name))?.size ?? 0;
  }

  read(name, offset, into) {
    return this._files.get(this.location(name))?.read(offset, into) ?? 0;
  }

  append(name, bytes) {
    const path = this.location(name);
    writable(path);
    let f = this._files.get(path);
    if (!f) this._files.set(path, (f = new MemoryFile()));
    const first = f.next;
    const chunks = chunksOf(bytes);
    for (const chunk of chunks) f.push(chunk);
    enqueue(path, (store) => chunks.forEach((chunk, i) => store.put(chunk, [path, first + i])));
  }

  replace(name, bytes) {
    const path = this.location(name);
    writable(path);
    const chunks = chunksOf(bytes);
    this._files.set(path, new MemoryFile(chunks));
    enqueue(path, (store) => {
      store.delete(fileRange(path));
      chunks.forEach((chunk, i) => store.put(chunk, [path, i]));
    });
  }

  // Durable means committed to IndexedDB, which comes later: the core waits
  // for it through whenSynced. A failed write is reported here too.
  sync(name) {
    writable(this.location(name));
    if (failure) {
      const error = failure;
      failure = null;
      throw error;
    }
  }

  // The core's sync-within default here: an IndexedDB commit costs more
  // than an fdatasync, so changes are gathered for longer.
  get syncWithinMs() {
    return BROWSER_SYNC_WITHIN_MS;
  }

  // Durable means committed: once every transaction queued so far is, the
  // core hears it (journalSynced), with the failure if one was refused.
  whenSynced(_name, token) {
    persistBrowserJournal().then(
      () => core.journalSynced(token, failure ? String(failure.message) : ''),
      (error) => core.journalSynced(token, String(error?.message ?? error)),
    );
  }

  // null when the lock is ours now, else who holds it.
  lock(name) {
    const path = this.location(name);
    if (claims.has(path)) return 'another system of this page';
    if (heldElsewhere.has(path)) return 'another tab of this origin';
    if (reloading.has(path)) return 'another tab of this origin (just released, loading its writes)';
    const claim = { lost: false, release: null, granted: null };
    claims.set(path, claim);
    if (locks) {
      claim.granted = new Promise((resolve) => {
        locks.request(LOCK_PREFIX + path, { ifAvailable: true }, (lock) => {
          if (!lock) {
            claim.lost = true;  // another tab claimed it at the same instant
            resolve(false);
            return undefined;
          }
          channel?.postMessage({ held: path });
          resolve(true);
          return new Promise((release) => {
            claim.release = release;
          });
        });
      });
    }
    return null;
  }

  unlock(name) {
    const path = this.location(name);
    const claim = claims.get(path);
    if (!claim) return;
    claims.delete(path);
    // After every queued write of the file is committed: the next holder reads them.
    chain = chain.then(() => {
      if (claim.release) {
        claim.release();
        channel?.postMessage({ released: path });
      }
    });
  }
}

// The page's state shared by every storage.
const claims = new Map();  // path → { lost, release, granted } of this page's writers
const heldElsewhere = new Set();  // paths another tab holds
const reloading = new Set();  // paths another tab released, being read afresh
const locks = haveIndexedDb ? globalThis.navigator?.locks : undefined;
const channel = haveIndexedDb && typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : null;
let chain = Promise.resolve();
let failure = null;
let lostWrite = null;  // a write refused because another tab won the lock
let database = null;
let shared = null;

function lockLost(path) {
  return new JournalLockedError(
    `journal ${path}: another tab took the writer's lock first; nothing of this system was written to it`,
    { location: path },
  );
}

function writable(path) {
  if (claims.get(path)?.lost) throw lockLost(path);
}

// Queues one IndexedDB transaction for a file, run once its Web Lock is granted.
function enqueue(path, change) {
  const claim = claims.get(path);
  chain = chain.then(async () => {
    if (claim?.granted && !(await claim.granted)) {
      // Lost at the same instant as another tab: accepted before the answer came, never
      // written. persistBrowserJournal() says so (no later sync may come to report it).
      lostWrite ??= lockLost(path);
      return;
    }
    const tx = database.transaction(STORE, 'readwrite');
    change(tx.objectStore(STORE));
    await done(tx);
  }).catch((error) => {
    failure ??= new Error(`journal ${path}: IndexedDB write failed: ${error?.message ?? error}`);
  });
}

// IndexedDB can be refused (a private window, a blocked origin): the page
// still runs, its persistent queues then keep letters in memory only.
let files = null;
if (haveIndexedDb) {
  try {
    database = await openDatabase();
    files = await loadFiles(database);
  } catch (error) {
    console.warn('mailroom: IndexedDB is not available, persistent dead letters will not survive a reload', error);
    database = null;
  }
}
if (database) {
  try {
    await migrateIdbfs(database, files);
  } catch (error) {
    console.warn('mailroom: the old IDBFS journal could not be copied', error);
  }
  shared = new BrowserJournalStorage(database, files);
  if (locks) {
    const { held = [] } = await locks.query().catch(() => ({}));
    for (const { name } of held) {
      if (name.startsWith(LOCK_PREFIX)) heldElsewhere.add(name.slice(LOCK_PREFIX.length));
    }
  }
  if (channel) {
    channel.onmessage = ({ data }) => {
      if (typeof data?.held === 'string') heldElsewhere.add(data.held);
      if (typeof data?.released !== 'string') return;
      const path = data.released;
      heldElsewhere.delete(path);
      reloading.add(path);
      loadFiles(database, path).then((fresh) => {
        files.set(path, fresh.get(path) ?? new MemoryFile());
      }).catch((error) => {
        console.warn('mailroom: cannot reload journal file', path, error);
      }).finally(() => reloading.delete(path));
    };
  }
}

// Whether this page keeps journals in IndexedDB.
export const browserPersistence = shared !== null;

// The IndexedDB storage of a journal folder (null outside the browser).
export function browserJournalStorage(dir = BROWSER_JOURNAL_DIR) {
  return shared ? shared.withDir(dir) : null;
}

// Resolves once every write queued so far is committed to IndexedDB.
export function persistBrowserJournal() {
  if (!shared) return Promise.resolve();
  return chain.then(() => {
    const error = lostWrite;
    lostWrite = null;
    if (error) throw error;
  });
}
