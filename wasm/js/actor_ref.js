// ActorRef: the JS handle of an actor. The core knows refs by a numeric id (its
// ref table); this module keeps one JS object per id so `this.self === this.self`
// and refs can be compared with ===. Id 0 is a path that resolved to nothing
// (a ghost): one JS object per path while anyone holds it (weakly cached), so
// a ghost restored twice (a dead letter's recipient, a decoded payload) is ===
// too, and a program that makes ever new paths keeps none of them alive.
import { core } from './core_loader.js';
import { exactName } from './exact_text.js';
import { SpecialMessage } from './closed_sets.js';
import { check, describe, expectString } from './errors.js';
import { DeadLetter, Kill, PoisonPill } from './messages.js';
import { rawSelectionTell, rawTell, rawTellNumber, rawTellSpecial } from './raw_core.js';
import { put } from './value_slab.js';

const refsById = new Map();
// Refs with no core id that must stay one object per path (system.deadLetters).
const refsByPath = new Map();
// Ghost refs by path, held weakly; an entry goes once its ref is collected.
const ghostsByPath = new Map();
const ghostCollected = new FinalizationRegistry((path) => {
  if (ghostsByPath.get(path)?.deref() === undefined) ghostsByPath.delete(path);
});

function ghostFor(path) {
  const office = refsByPath.get(path);
  if (office !== undefined) return office;
  let ref = ghostsByPath.get(path)?.deref();
  if (ref === undefined) {
    ref = new ActorRef(0, path);
    ghostsByPath.set(path, new WeakRef(ref));
    ghostCollected.register(ref, path);
  }
  return ref;
}

// Sender id for a core call: 0 for none (null, undefined, a foreign object).
export function senderId(sender) {
  return sender instanceof ActorRef ? sender._id : 0;
}

// The sender id for a tell when `sender` is not an ActorRef: 0 for none (null,
// undefined); anything else is refused rather than silently sent without a sender.
function noSender(sender) {
  if (sender === null || sender === undefined) return 0;
  throw new TypeError(`tell(message, sender): sender must be an ActorRef or null, got ${describe(sender)}`);
}

// The core id of a ref argument; anything but an ActorRef is a TypeError.
export function refArg(ref, what) {
  if (!(ref instanceof ActorRef)) {
    throw new TypeError(`${what} needs an ActorRef, got ${ref === null ? 'null' : typeof ref}`);
  }
  return ref._id;
}

const { None: NONE, PoisonPill: POISON_PILL, Kill: KILL } = SpecialMessage;

// Code for framework messages sent as JS objects (so the core gets its own type).
export function specialOf(message) {
  if (message instanceof PoisonPill) return POISON_PILL;
  if (message instanceof Kill) return KILL;
  return NONE;
}

export class ActorRef {
  constructor(id, path) {
    this._id = id;
    this.path = path;
  }

  // Fire-and-forget; never runs the receiver on this stack. A full mailbox
  // with the reject policy throws MailboxFullError here. The hot path: the
  // message goes into the value slab and only integers cross to the core.
  tell(message, sender = null) {
    const from = sender instanceof ActorRef ? sender._id : noSender(sender);
    if (this._id === 0) {
      check(core.pathTell(this.path, message, from, specialOf(message)));
      return;
    }
    let status;
    if (typeof message === 'number') status = rawTellNumber(this._id, message, from);
    else if (message instanceof PoisonPill) status = rawTellSpecial(this._id, POISON_PILL, from);
    else if (message instanceof Kill) status = rawTellSpecial(this._id, KILL, from);
    else status = rawTell(this._id, put(message), from);
    if (status !== 0) check(core.takeTellError());
  }

  // Drain what is queued, then stop (a PoisonPill user message).
  stop() {
    if (this._id === 0) this.tell(PoisonPill.instance);
    else if (rawTellSpecial(this._id, POISON_PILL, 0) !== 0) check(core.takeTellError());
  }

  // Fail the actor with ActorKilledError (a Kill user message).
  kill() {
    if (this._id === 0) this.tell(Kill.instance);
    else if (rawTellSpecial(this._id, KILL, 0) !== 0) check(core.takeTellError());
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

// The JS object for a core ref id (cached); id 0 the ghost ref of the path
// (or the system's dead-letter office there).
export function refFor(id, path) {
  if (id === 0) return path ? ghostFor(path) : null;
  let ref = refsById.get(id);
  if (ref === undefined) {
    ref = new ActorRef(id, path);
    refsById.set(id, ref);
  }
  return ref;
}

// The JS object for a ref id the core handed out (its path is fetched only
// the first time this id reaches JS, e.g. when a sender is first read).
export function refForId(id) {
  return refsById.get(id) ?? refFor(id, core.refPath(id));
}

// Forget refs the core released (a terminated system).
export function forgetRefs(ids) {
  for (const id of ids) refsById.delete(id);
}

// system.deadLetters: the core's dead-letter office (ActorSystem::
// dead_letters()) as a ref, as in the seed framework. The core applies its
// rules: a DeadLetter told to it is recorded as it is (its recipient, its
// sender), anything else becomes DeadLetter(message, sender, deadLetters). A JS
// DeadLetter crosses as the core's own letter, so the core sees what it holds.
export class DeadLetterRef extends ActorRef {
  constructor(systemId, path, id) {
    super(id, path);
    Object.defineProperty(this, '_systemId', { value: systemId });
    refsByPath.set(path, this);
    refsById.set(id, this);
  }

  tell(message, sender = null) {
    if (!(message instanceof DeadLetter)) {
      super.tell(message, sender);
      return;
    }
    const letter = message;
    // The core drops a letter about its own letter; a JS one it cannot see.
    if (letter.message instanceof DeadLetter) return;
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

// Core selection ids by system id and path: a path crosses once per system.
// Bounded, so a program that makes selections of ever new paths does not grow
// it without end (past the bound, new paths take the slower embind call).
const selectionIds = new Map();
const MAX_SELECTIONS_PER_SYSTEM = 4096;

function selectionId(systemId, path) {
  let ids = selectionIds.get(systemId);
  let id = ids?.get(path);
  if (id !== undefined) return id;
  if (ids !== undefined && ids.size >= MAX_SELECTIONS_PER_SYSTEM) return 0;
  id = check(core.selectionIntern(systemId, path));  // 0: the system is gone
  if (id !== 0) {
    if (ids === undefined) selectionIds.set(systemId, (ids = new Map()));
    ids.set(path, id);
  }
  return id;
}

// The system is gone: its selection ids with it.
export function forgetSelections(systemId) {
  selectionIds.delete(systemId);
}

// A path looked up at each tell: nothing there → a dead letter.
export class ActorSelection {
  constructor(systemId, path) {
    this._systemId = systemId;
    this.path = exactName(expectString(path, 'actorSelection(path)'), 'actor path');
    this._selectionId = 0;
  }

  tell(message, sender = null) {
    const from = sender instanceof ActorRef ? sender._id : noSender(sender);
    if (this._selectionId === 0) this._selectionId = selectionId(this._systemId, this.path);
    if (this._selectionId === 0) {
      check(core.selectionTell(this._systemId, this.path, message, from, specialOf(message)));
      return;
    }
    const special = specialOf(message);
    const status = rawSelectionTell(this._selectionId, special === NONE ? put(message) : 0, special, from);
    if (status !== 0) check(core.takeTellError());
  }
}
