// Fluent option builders. Like the seed framework's, each `with...` records a
// field and returns `this`; plain objects with the same fields are accepted
// wherever a builder is, and both go through the same path: settingsOf()
// checks JS types against the core's field table (a wrong type is the core's
// OptionsError naming family, field and the value as given); values, ranges
// and combinations are validated by the core when the options are used, so
// JS and C++ refuse exactly the same things.
import { OptionsError, describe } from './errors.js';
import { checkField, checkFields, typeError } from './option_checks.js';
import { LogLevel } from './closed_sets.js';
import { strategyRecord } from './supervision.js';

class OptionsBuilder {
  constructor(family) {
    Object.defineProperty(this, 'family', { value: family, enumerable: false });
  }

  set(field, value) {
    this[field] = checkField(this.family, field, value);
    return this;
  }

  // The plain settings object (own enumerable fields, undefined ones dropped).
  toJSON() {
    const out = {};
    for (const [key, value] of Object.entries(this)) if (value !== undefined) out[key] = value;
    return out;
  }
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
    return this.set('mailboxCapacity', capacity);
  }
  // What a full bounded default mailbox drops; defaults to 'drop-head'.
  withMailboxOverflow(policy) {
    return this.set('mailboxOverflow', policy);
  }
  // Replaces the queue: called once per actor instance, restarts included.
  withMailbox(factory) {
    // Unlike a plain object's absent field, an empty builder call is a mistake.
    if (typeof factory !== 'function') throw typeError('ActorOptions', 'mailbox', factory);
    return this.set('mailbox', factory);
  }
  // Messages an actor takes per turn before yielding to others.
  withThroughput(n) {
    return this.set('throughput', n);
  }
  // The class name inspect(), the panel and the class metric label show,
  // instead of the constructor's (a minified build renames classes).
  withClassName(name) {
    return this.set('className', name);
  }
  // How the parent supervises this actor, instead of the parent's own
  // supervisorStrategy() (which still governs the siblings).
  withSupervisorStrategy(strategy) {
    strategyRecord(strategy, 'ActorOptions');
    this.supervisorStrategy = strategy;
    return this;
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
    return this.set('capacity', capacity);
  }
  withOverflow(policy) {
    return this.set('overflow', policy);
  }
  withDeadLetterDrops(enabled = true) {
    return this.set('deadLetterDrops', enabled);
  }
  withOnDrop(observer) {
    return this.set('onDrop', observer);
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
    return this.set('priorityFor', fn);
  }
  withCapacity(capacity) {
    return this.set('capacity', capacity);
  }
  withOverflow(policy) {
    return this.set('overflow', policy);
  }
  withDeadLetterDrops(enabled = true) {
    return this.set('deadLetterDrops', enabled);
  }
  withOnPriorityError(fn) {
    return this.set('onPriorityError', fn);
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
  // 'off' | 'metrics' | 'memory' | 'persistent' (DeadLetterStore)
  withStore(store) {
    return this.set('store', store);
  }
  withMaxEntries(n) {
    return this.set('maxEntries', n);
  }
  withRetentionMs(ms) {
    return this.set('retentionMs', ms);
  }
  withMaxReplays(n) {
    return this.set('maxReplays', n);
  }
  withPersistenceId(id) {
    return this.set('persistenceId', id);
  }
  // Every journal change is durable at most this many ms after it (integer
  // 0..60000; default 50 in Node, 250 in the browser).
  withSyncWithinMs(ms) {
    return this.set('syncWithinMs', ms);
  }
}

const loggerMethods = ['debug', 'info', 'warn', 'error'];

// A logger is any object with debug, info, warn and error methods.
export function checkLogger(logger) {
  if (logger === undefined || logger === null) return undefined;
  checkField('ActorSystemOptions', 'logger', logger);  // an object, as the core's table says
  const holder = true;
  const missing = holder ? loggerMethods.filter((m) => typeof logger[m] !== 'function') : loggerMethods;
  if (missing.length > 0) {
    throw new OptionsError(
      `ActorSystemOptions.logger must have ${loggerMethods.join(', ')} methods, got ${describe(logger)}` +
        (holder ? ` (missing ${missing.join(', ')})` : ''),
      { family: 'ActorSystemOptions', field: 'logger', value: logger },
    );
  }
  return logger;
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
    return this.set('config', configText(hocon));
  }
  withMetrics(enabled = true) {
    return this.set('metrics', enabled);
  }
  // Where a persistent dead-letter queue keeps its journal (Node: a real folder).
  withJournalDir(dir) {
    return this.set('journalDir', dir);
  }
  // The lowest level that reaches the logger: LogLevel.Debug | Info (the
  // default) | Warn | Error | Off. Over HOCON mailroom.logger.level.
  withLogLevel(level) {
    return this.set('logLevel', level);
  }
  // Where log lines go (default: the console): any object with debug, info,
  // warn and error methods, called as logger[level](message, {level, source,
  // timestampMs}) for lines at or above the log level. NoopLogger drops them.
  withLogger(logger) {
    this.logger = checkLogger(logger);
    return this;
  }
}

// A plain config object is JSON text, which HOCON reads as it is.
export function configText(config) {
  if (config !== null && typeof config === 'object' && !Array.isArray(config)) return JSON.stringify(config);
  return config;
}

// Plain settings from a builder or a plain object (undefined → {}), with every
// known field's JS type checked: the one path both kinds of options take.
export function settingsOf(options, family) {
  if (options === undefined) return {};
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${family} must be an object or ${family}.create(), got ${describe(options)}`);
  }
  const s = options instanceof OptionsBuilder ? options.toJSON() : { ...options };
  return checkFields(family, s);
}

export { LogLevel };
