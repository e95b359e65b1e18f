// system.deadLetterQueue: the core's queue seen from JS. Every call returns a
// promise (a persistent queue may be reading a previous run's log). Entries and
// results are plain objects; a captured payload's message is the very value sent.
import { core } from './core_loader.js';
import { JournalWriteError, check, describe } from './errors.js';
import { exactName } from './exact_text.js';
import { resolveOptions } from './option_checks.js';
import { settingsOf } from './options.js';

// The system's own queue is made with this token; any other construction is
// a detached queue (the seed: valid, but never installed as the capture sink).
export const liveQueue = Symbol('mailroom.liveQueue');

// Settings of a hand-built queue: its options over the built-in defaults, as
// the core resolves them (the same rules as the system's own queue).
function detachedSettings(system, options) {
  return resolveOptions('DeadLetterQueueOptions', settingsOf(options, 'DeadLetterQueueOptions'),
    system?.name ?? '');
}

function entryId(id) {
  if (typeof id === 'string' || typeof id === 'number') return String(id);
  throw new TypeError(`a dead-letter entry id must be a string, got ${describe(id)}`);
}

function filterOf(filter) {
  if (filter === undefined || filter === null) return {};
  if (typeof filter !== 'object') {
    throw new TypeError(`list(filter) needs an object, got ${describe(filter)}`);
  }
  const out = {};
  if (filter.recipient !== undefined) {
    if (typeof filter.recipient !== 'string') throw new TypeError('filter.recipient must be a string');
    out.recipient = exactName(filter.recipient, 'actor path');
  }
  for (const key of ['sinceMs', 'untilMs', 'limit']) {
    if (filter[key] === undefined) continue;
    // Infinity, NaN and fractions are decided by the core (DeadLetterFilter::from_numbers).
    if (typeof filter[key] !== 'number') {
      throw new TypeError(`filter.${key} must be a number, got ${describe(filter[key])}`);
    }
    out[key] = filter[key];
  }
  return out;
}

// Resolves once everything the system's queue journaled so far is durable
// (Node: written and fdatasync'ed; browser: the IndexedDB transaction
// committed); rejects with JournalWriteError when storage failed.
function durable(system) {
  return new Promise((resolve, reject) => {
    check(core.dlqWhenDurable(system._id, (error) => {
      if (error) reject(new JournalWriteError(error));
      else resolve();
    }));
  });
}

export class DeadLetterQueue {
  // new DeadLetterQueue(system, options): a valid queue that no one installs
  // as the capture sink, so it never holds a letter. The system's queue is
  // system.deadLetterQueue, configured through ActorSystemOptions.withDeadLetters.
  constructor(system, options, token) {
    this._system = system;
    this._detached = token === liveQueue ? null : detachedSettings(system, options);
  }
  // Newest first; recipient matches a path or its subtree.
  async list(filter) {
    const f = filterOf(filter);
    if (this._detached) return [];
    return check(core.dlqList(this._system._id, f)).entries;
  }
  async get(id) {
    const key = entryId(id);
    if (this._detached) return undefined;
    return check(core.dlqGet(this._system._id, key)).entry ?? undefined;
  }
  // { kind: 'replayed' | 'unknown-entry' | 'unresolved-recipient' |
  //   'degraded-payload' | 'quarantined' | 'rejected' | 'control-message', recipientPath? }
  async replay(id, alternatePath) {
    if (alternatePath !== undefined && alternatePath !== null && typeof alternatePath !== 'string') {
      throw new TypeError(`replay(id, path): path must be a string, got ${describe(alternatePath)}`);
    }
    exactName(alternatePath, 'actor path');
    const key = entryId(id);
    if (this._detached) return { kind: 'unknown-entry' };
    const result = check(core.dlqReplay(this._system._id, key, alternatePath ?? null));
    this._system._driver.wake();
    await durable(this._system);
    return result;
  }
  // Purge: { results: [{ id, outcome: 'removed' | 'unknown-entry' | 'in-flight' }] },
  // one per id in the order given. Journaled: a purged letter does not come back.
  async remove(ids) {
    if (!Array.isArray(ids)) throw new TypeError(`remove(ids) needs an array of entry ids, got ${describe(ids)}`);
    const keys = ids.map(entryId);
    if (this._detached) return { results: keys.map((id) => ({ id, outcome: 'unknown-entry' })) };
    const result = check(core.dlqRemove(this._system._id, keys));
    await durable(this._system);
    return result;
  }
  // Lifts a quarantine (replayCount back to 0, journaled):
  // { kind: 'released' | 'unknown-entry' | 'not-quarantined' }.
  async release(id) {
    const key = entryId(id);
    if (this._detached) return { kind: 'unknown-entry' };
    const result = check(core.dlqRelease(this._system._id, key));
    await durable(this._system);
    return result;
  }
  async clear() {
    if (this._detached) return 0;
    const { removed } = check(core.dlqClear(this._system._id));
    await durable(this._system);
    return removed;
  }
  // Resolves once every change journaled so far (captures included, which
  // are otherwise durable within settings.syncWithinMs) is durable.
  async whenDurable() {
    if (this._detached) return;
    await durable(this._system);
  }
  // The resolved settings (store, maxEntries, retentionMs, maxReplays, persistenceId,
  // syncWithinMs).
  get settings() {
    if (this._detached) return { ...this._detached };
    return check(core.dlqSettings(this._system._id));
  }
  // Where this queue keeps what it captures: 'off' | 'metrics' | 'memory' | 'persistent'.
  get store() {
    return this.settings.store;
  }
}
