// Fluent option builders. Like the seed framework's, each `with...` records a
// field and returns `this`; plain objects with the same fields are accepted
// wherever a builder is. Types are checked here (a wrong type is an
// OptionsError naming the field); values and combinations are validated by the
// core when the options are used, so JS and C++ reject exactly the same things.
import { OptionsError, describe, expectBoolean, expectFunction, expectNumber } from './errors.js';
import { strategyRecord } from './supervision.js';

class OptionsBuilder {
  constructor(family) {
    Object.defineProperty(this, 'family', { value: family, enumerable: false });
  }

  set(field, value) {
    this[field] = value;
    return this;
  }

  // The plain settings object (own enumerable fields, undefined ones dropped).
  toJSON() {
    const out = {};
    for (const [key, value] of Object.entries(this)) if (value !== undefined) out[key] = value;
    return out;
  }
}

function expectString(value, family, field) {
  if (typeof value !== 'string') {
    throw new OptionsError(`${family}.${field} must be a string, got ${describe(value)}`, {
      family,
      field,
      value,
    });
  }
  return value;
}

// Per-actor spawn configuration.
export class ActorOptions extends OptionsBuilder {
  constructor() {
    super('ActorOptions');
  }
  static create() {
    return new ActorOptions();
  }
  // Bounds the default FIFO mailbox.
  withMailboxCapacity(capacity) {
    return this.set('mailboxCapacity', expectNumber(capacity, 'ActorOptions', 'mailboxCapacity'));
  }
  // What a full bounded default mailbox drops; defaults to 'drop-head'.
  withMailboxOverflow(policy) {
    return this.set('mailboxOverflow', expectString(policy, 'ActorOptions', 'mailboxOverflow'));
  }
  // Replaces the queue: called once per actor instance, restarts included.
  withMailbox(factory) {
    if (typeof factory !== 'function') {
      throw new OptionsError(`ActorOptions.mailbox must be a function, got ${describe(factory)}`, {
        family: 'ActorOptions',
        field: 'mailbox',
        value: factory,
      });
    }
    return this.set('mailbox', factory);
  }
  // Messages an actor takes per turn before yielding to others.
  withThroughput(n) {
    return this.set('throughput', expectNumber(n, 'ActorOptions', 'throughput'));
  }
  // How the parent supervises this actor, instead of the parent's own
  // supervisorStrategy() (which still governs the siblings).
  withSupervisorStrategy(strategy) {
    strategyRecord(strategy, 'ActorOptions');
    return this.set('supervisorStrategy', strategy);
  }
}

// Settings of a BoundedMailbox (also accepted as a plain object).
export class BoundedMailboxOptions extends OptionsBuilder {
  constructor() {
    super('BoundedMailbox');
  }
  static create() {
    return new BoundedMailboxOptions();
  }
  withCapacity(capacity) {
    return this.set('capacity', expectNumber(capacity, 'BoundedMailbox', 'capacity'));
  }
  withOverflow(policy) {
    return this.set('overflow', expectString(policy, 'BoundedMailbox', 'overflow'));
  }
  withDeadLetterDrops(enabled = true) {
    return this.set('deadLetterDrops', expectBoolean(enabled, 'BoundedMailbox', 'deadLetterDrops'));
  }
  withOnDrop(observer) {
    return this.set('onDrop', expectFunction(observer, 'BoundedMailbox.onDrop'));
  }
}

// Settings of a PriorityMailbox (also accepted as a plain object).
export class PriorityMailboxOptions extends OptionsBuilder {
  constructor() {
    super('PriorityMailbox');
  }
  static create() {
    return new PriorityMailboxOptions();
  }
  withPriorityFor(fn) {
    return this.set('priorityFor', expectFunction(fn, 'PriorityMailbox.priorityFor'));
  }
  withCapacity(capacity) {
    return this.set('capacity', expectNumber(capacity, 'PriorityMailbox', 'capacity'));
  }
  withOverflow(policy) {
    return this.set('overflow', expectString(policy, 'PriorityMailbox', 'overflow'));
  }
  withDeadLetterDrops(enabled = true) {
    return this.set('deadLetterDrops', expectBoolean(enabled, 'PriorityMailbox', 'deadLetterDrops'));
  }
  withOnPriorityError(fn) {
    return this.set('onPriorityError', expectFunction(fn, 'PriorityMailbox.onPriorityError'));
  }
}

// How much of an undeliverable letter the system keeps.
export class DeadLetterQueueOptions extends OptionsBuilder {
  constructor() {
    super('DeadLetterQueueOptions');
  }
  static create() {
    return new DeadLetterQueueOptions();
  }
  // 'off' | 'metrics' | 'memory' | 'persistent'
  withStore(store) {
    return this.set('store', expectString(store, 'DeadLetterQueueOptions', 'store'));
  }
  withMaxEntries(n) {
    return this.set('maxEntries', expectNumber(n, 'DeadLetterQueueOptions', 'maxEntries'));
  }
  withRetentionMs(ms) {
    return this.set('retentionMs', expectNumber(ms, 'DeadLetterQueueOptions', 'retentionMs'));
  }
  withMaxReplays(n) {
    return this.set('maxReplays', expectNumber(n, 'DeadLetterQueueOptions', 'maxReplays'));
  }
  withPersistenceId(id) {
    return this.set('persistenceId', expectString(id, 'DeadLetterQueueOptions', 'persistenceId'));
  }
}

// Given to ActorSystem.create.
export class ActorSystemOptions extends OptionsBuilder {
  constructor() {
    super('ActorSystemOptions');
  }
  static create() {
    return new ActorSystemOptions();
  }
  withDeadLetters(options) {
    if (options === null || typeof options !== 'object') {
      throw new OptionsError(
        `ActorSystemOptions.deadLetters must be DeadLetterQueueOptions, got ${describe(options)}`,
        { family: 'ActorSystemOptions', field: 'deadLetters', value: options },
      );
    }
    return this.set('deadLetters', options);
  }
  // A HOCON document (the `mailroom { ... }` block), or a plain config object
  // as the seed framework accepts it (JSON is HOCON, so it is read the same way).
  withConfig(hocon) {
    if (hocon !== null && typeof hocon === 'object' && !Array.isArray(hocon)) {
      return this.set('config', JSON.stringify(hocon));
    }
    return this.set('config', expectString(hocon, 'ActorSystemOptions', 'config'));
  }
  withMetrics(enabled = true) {
    return this.set('metrics', expectBoolean(enabled, 'ActorSystemOptions', 'metrics'));
  }
  // Where a persistent dead-letter queue keeps its journal (Node: a real folder).
  withJournalDir(dir) {
    return this.set('journalDir', expectString(dir, 'ActorSystemOptions', 'journalDir'));
  }
}

// Plain settings from a builder or a plain object; null/undefined → {}.
export function settingsOf(options, family) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${family} must be an object or ${family}.create(), got ${describe(options)}`);
  }
  return options instanceof OptionsBuilder ? options.toJSON() : { ...options };
}
