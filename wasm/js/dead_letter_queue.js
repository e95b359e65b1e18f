// system.deadLetterQueue: the core's queue seen from JS. Every call returns a
// promise (a persistent queue may be reading a previous run's log). Entries and
// results are plain objects; a captured payload's message is the very value sent.
import { core } from './core_loader.js';
import { check, describe } from './errors.js';

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
    out.recipient = filter.recipient;
  }
  for (const key of ['sinceMs', 'untilMs', 'limit']) {
    if (filter[key] === undefined) continue;
    if (typeof filter[key] !== 'number' || Number.isNaN(filter[key])) {
      throw new TypeError(`filter.${key} must be a number, got ${describe(filter[key])}`);
    }
    out[key] = filter[key];
  }
  return out;
}

export class DeadLetterQueue {
  constructor(system) {
    this._system = system;
  }
  // Newest first; recipient matches a path or its subtree.
  async list(filter) {
    return check(core.dlqList(this._system._id, filterOf(filter))).entries;
  }
  async get(id) {
    return check(core.dlqGet(this._system._id, entryId(id))).entry ?? undefined;
  }
  // { kind: 'replayed' | 'unknown-entry' | 'unresolved-recipient' |
  //   'degraded-payload' | 'quarantined' | 'rejected', recipientPath? }
  async replay(id, alternatePath) {
    if (alternatePath !== undefined && alternatePath !== null && typeof alternatePath !== 'string') {
      throw new TypeError(`replay(id, path): path must be a string, got ${describe(alternatePath)}`);
    }
    const result = check(core.dlqReplay(this._system._id, entryId(id), alternatePath ?? null));
    this._system._driver.wake();
    return result;
  }
  async clear() {
    return check(core.dlqClear(this._system._id)).removed;
  }
  // The resolved settings (store, maxEntries, retentionMs, maxReplays, persistenceId).
  get settings() {
    return check(core.dlqSettings(this._system._id));
  }
}
