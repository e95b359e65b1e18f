// ActorRef: the JS handle of an actor. The core knows refs by a numeric id (its
// ref table); this module keeps one JS object per id so `this.self === this.self`
// and refs can be compared with ===. Id 0 is a path that resolved to nothing.
import { core } from './core_loader.js';
import { check, expectString } from './errors.js';
import { DeadLetter, Kill, PoisonPill } from './messages.js';

const refsById = new Map();
// Refs with no core id that must stay one object per path (system.deadLetters).
const refsByPath = new Map();

// Sender id for a core call: 0 for none (null, undefined, a foreign object).
export function senderId(sender) {
  return sender instanceof ActorRef ? sender._id : 0;
}

// The core id of a ref argument; anything but an ActorRef is a TypeError.
export function refArg(ref, what) {
  if (!(ref instanceof ActorRef)) {
    throw new TypeError(`${what} needs an ActorRef, got ${ref === null ? 'null' : typeof ref}`);
  }
  return ref._id;
}

// Code for framework messages sent as JS objects (so the core gets its own type).
export function specialOf(message) {
  if (message instanceof PoisonPill) return 1;
  if (message instanceof Kill) return 2;
  return 0;
}

export class ActorRef {
  constructor(id, path) {
    this._id = id;
    this.path = path;
  }

  // Fire-and-forget; never runs the receiver on this stack. A full mailbox
  // with the reject policy throws MailboxFullError here.
  tell(message, sender = null) {
    const special = specialOf(message);
    if (this._id === 0) {
      check(core.pathTell(this.path, message, senderId(sender), special));
    } else {
      check(core.refTell(this._id, message, senderId(sender), special));
    }
  }

  // Drain what is queued, then stop (a PoisonPill user message).
  stop() {
    this.tell(PoisonPill.instance);
  }

  // Fail the actor with ActorKilledError (a Kill user message).
  kill() {
    this.tell(Kill.instance);
  }

  equals(other) {
    return other instanceof ActorRef && other.path === this.path;
  }

  toString() {
    return this.path;
  }

  toJSON() {
    return this.path;
  }
}

// The JS object for a core ref id (cached); id 0 gives a fresh ghost ref,
// unless the path is a system's dead-letter office.
export function refFor(id, path) {
  if (id === 0) return path ? (refsByPath.get(path) ?? new ActorRef(0, path)) : null;
  let ref = refsById.get(id);
  if (ref === undefined) {
    ref = new ActorRef(id, path);
    refsById.set(id, ref);
  }
  return ref;
}

// Forget refs the core released (a terminated system).
export function forgetRefs(ids) {
  for (const id of ids) refsById.delete(id);
}

// system.deadLetters: the dead-letter office as a ref, as in the seed
// framework. A DeadLetter told to it is recorded as it is (its recipient, its
// sender); anything else becomes DeadLetter(message, sender, deadLetters). The
// system's dead-letter queue captures it first, then it is published on the
// event stream, like every undeliverable message. A DeadLetter about a
// DeadLetter is dropped: that is a delivery loop, with nowhere further to go.
export class DeadLetterRef extends ActorRef {
  constructor(systemId, path) {
    super(0, path);
    Object.defineProperty(this, '_systemId', { value: systemId });
    refsByPath.set(path, this);
  }

  tell(message, sender = null) {
    let letter = message;
    if (letter instanceof DeadLetter) {
      if (letter.message instanceof DeadLetter) return;
    } else {
      letter = new DeadLetter(message, sender instanceof ActorRef ? sender : null, this);
    }
    const recipient = letter.recipient instanceof ActorRef ? letter.recipient : this;
    const from = letter.sender instanceof ActorRef ? letter.sender : null;
    check(core.deadLettersTell(this._systemId, letter.message, specialOf(letter.message),
      senderId(from), from?.path ?? '', recipient._id, recipient.path));
  }

  // The system is gone: its office path may name a new system's office.
  _release() {
    if (refsByPath.get(this.path) === this) refsByPath.delete(this.path);
  }
}

// A path looked up at each tell: nothing there → a dead letter.
export class ActorSelection {
  constructor(systemId, path) {
    this._systemId = systemId;
    this.path = expectString(path, 'actorSelection(path)');
  }

  tell(message, sender = null) {
    check(core.selectionTell(this._systemId, this.path, message, senderId(sender), specialOf(message)));
  }
}
