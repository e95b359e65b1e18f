// The typed errors of the JS API. The core reports failures as status records
// ({ error: { type, message, ... } }); raise() turns one into the matching class.

export class MailroomError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}

// Invalid option or combination: which family, which field, which value.
export class OptionsError extends MailroomError {
  constructor(message, { family = '', field = '', value = undefined } = {}) {
    super(message);
    this.family = family;
    this.field = field;
    this.value = value;
  }
}

// A bounded mailbox with the reject policy refused a message at tell.
export class MailboxFullError extends MailroomError {
  constructor(message, { path = '', capacity = 0 } = {}) {
    super(message);
    this.path = path;
    this.capacity = capacity;
  }
}

export class StashOverflowError extends MailroomError {}

// Malformed HOCON, with the 1-based position of the problem.
export class ConfigError extends MailroomError {
  constructor(message, { line = 0, column = 0 } = {}) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

export class InvalidActorNameError extends MailroomError {}
export class IllegalStateError extends MailroomError {}
export class ActorKilledError extends MailroomError {}
export class JournalCorruptionError extends MailroomError {}

// A journal stream already has a writer (another live system of the same
// name, another process): the second one is refused, never merged.
export class JournalLockedError extends MailroomError {
  constructor(message, { stream = '', location = '' } = {}) {
    super(message);
    this.stream = stream;
    this.location = location;
  }
}

// A journal change could not be made durable (a full disk, IndexedDB refused
// the write): an operator action whose record was not stored rejects with it.
export class JournalWriteError extends MailroomError {}

// An actor could not be created: its constructor, preStart or postRestart
// failed (also when the promise an async preStart returned rejected). `cause`
// is what was thrown. Supervision deciders see it; the default stops the actor.
export class ActorInitializationError extends MailroomError {
  constructor(message, cause) {
    super(message);
    this.cause = cause;
  }
}

// The journal folder cannot be used (a file of that name is in the way, no
// permission): named, instead of a raw EEXIST from the file system.
export class JournalFolderError extends MailroomError {
  constructor(message, dir) {
    super(message);
    this.dir = dir;
  }
}

const byType = {
  OptionsError: (e) =>
    new OptionsError(e.message, { family: e.family, field: e.field, value: e.value }),
  MailboxFullError: (e) =>
    new MailboxFullError(e.message, { path: e.path, capacity: e.capacity }),
  StashOverflowError: (e) => new StashOverflowError(e.message),
  ConfigError: (e) => new ConfigError(e.message, { line: e.line, column: e.column }),
  InvalidActorNameError: (e) => new InvalidActorNameError(e.message),
  IllegalStateError: (e) => new IllegalStateError(e.message),
  ActorKilledError: (e) => new ActorKilledError(e.message),
  JournalCorruptionError: (e) => new JournalCorruptionError(e.message),
  JournalLockedError: (e) => new JournalLockedError(e.message, { stream: e.stream, location: e.location }),
  ActorInitializationError: (e) =>
    new ActorInitializationError(e.message, e.cause === undefined ? undefined : errorFromRecord(e.cause)),
  TypeError: (e) => new TypeError(e.message),
};

// A JS error object for a core error record; `js` records carry the original
// JS value (an exception thrown by user code that crossed the core).
export function errorFromRecord(record) {
  if (record.type === 'js') return record.value;
  const make = byType[record.type];
  return make ? make(record) : new MailroomError(`${record.type}: ${record.message}`);
}

// Throw when a binding call answered with an error record; otherwise return the value.
export function check(result) {
  if (result && typeof result === 'object' && result.error !== undefined) {
    throw errorFromRecord(result.error);
  }
  return result;
}

// Argument checks at the JS boundary: a wrong type is a TypeError with a clear
// message, never something that reaches the core as garbage.
export function expectString(value, what) {
  if (typeof value !== 'string') {
    throw new TypeError(`${what} must be a string, got ${describe(value)}`);
  }
  return value;
}

export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'Object'})`;
  return `${typeof value} ${String(value)}`;
}
