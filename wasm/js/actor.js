// Actor: the base class of JS actors, and the per-incarnation cell the core's
// C++ adapter drives. The core decides when hooks run (one message at a time,
// system messages first, supervision); this file only maps them onto JS.
import { core } from './core_loader.js';
import { check } from './errors.js';
import { refArg, refFor, refForId } from './actor_ref.js';
import { Logger } from './logger.js';
import { defaultStrategy } from './supervision.js';
import { valueAt } from './value_slab.js';

// The cell whose actor is being constructed, so `this.self` etc. work in a
// constructor (set by constructActor around the `new`).
let constructing = null;

// The class name inspection and the metric labels show for an actor class
// (anonymous classes: 'Actor'); the core gets it at spawn and again from the
// instance a factory built.
export function actorClassName(actorClass) {
  const name = actorClass?.name;
  return typeof name === 'string' && name !== '' ? name : 'Actor';
}

// What `this.context` offers; bound to one actor incarnation.
export class ActorContext {
  constructor(cell) {
    Object.defineProperty(this, '_cell', { value: cell });
  }
  get self() {
    return this._cell.self;
  }
  get sender() {
    return this._cell.sender;
  }
  get system() {
    return this._cell.system;
  }
  get log() {
    return this._cell.log;
  }
  get parent() {
    const r = core.ctxParent(this._cell.key);
    return r ? refFor(r.id, r.path) : null;
  }
  get children() {
    return check(core.ctxChildren(this._cell.key)).map((r) => refFor(r.id, r.path));
  }
  // Park the message being handled; unstashAll() puts it back at the front.
  stash() {
    check(core.ctxStash(this._cell.key));
  }
  unstashAll() {
    check(core.ctxUnstashAll(this._cell.key));
  }
  // Replace the message handler; with discardOld=false, unbecome() restores
  // the previous one. The core keeps the stack (cleared on restart).
  become(behavior, discardOld = true) {
    if (typeof behavior !== 'function') {
      throw new TypeError('context.become(behavior) needs a function (message) => void');
    }
    check(core.ctxBecome(this._cell.key, behavior, Boolean(discardOld)));
  }
  unbecome() {
    check(core.ctxUnbecome(this._cell.key));
  }
  spawn(actorClass, name, options) {
    return this._cell.system._spawn(this._cell.key, actorClass, name, options);
  }
  stop(ref) {
    check(core.ctxStop(this._cell.key, refArg(ref, 'context.stop(ref)')));
  }
  watch(ref) {
    check(core.ctxWatch(this._cell.key, refArg(ref, 'context.watch(ref)')));
    return ref;
  }
  unwatch(ref) {
    check(core.ctxUnwatch(this._cell.key, refArg(ref, 'context.unwatch(ref)')));
    return ref;
  }
  actorSelection(path) {
    return this._cell.system.actorSelection(path);
  }
}

export class Actor {
  constructor() {
    // Non-enumerable so user subclasses' own fields stay clean.
    Object.defineProperty(this, '_cell', { value: constructing, writable: true });
  }
  get context() {
    return this._cell?.context;
  }
  get self() {
    return this._cell?.self;
  }
  // The sender of the message being handled, or null.
  get sender() {
    return this._cell?.sender ?? null;
  }
  get system() {
    return this._cell?.system;
  }
  get log() {
    return this._cell?.log;
  }
  onReceive(message) {
    this.unhandled(message);
  }
  preStart() {}
  postStop() {}
  preRestart(reason, message) {
    return this.postStop();
  }
  postRestart(reason) {
    return this.preStart();
  }
  // How this actor supervises its children (their failures come here).
  supervisorStrategy() {
    return defaultStrategy;
  }
  // Declare a message unhandled: it becomes a dead letter.
  unhandled(message) {
    if (this._cell) check(core.ctxUnhandled(this._cell.key, message));
  }
}

// One actor incarnation as JS sees it. The sender of the message being handled
// is only an id until someone reads it (its ActorRef, and its path, are made
// then, not per message).
class Cell {
  constructor(key, system, self) {
    this.key = key;
    this.system = system;
    this.self = self;
    this.senderId = 0;
    // The last sender read, kept across messages: a reply to the same sender
    // (ping-pong, request/response) reads it without a table lookup.
    this.lastSenderId = 0;
    this.lastSender = null;
    this.log = new Logger(system, key);
    this.context = new ActorContext(this);
  }
  get sender() {
    const id = this.senderId;
    if (id === 0) return null;
    if (id !== this.lastSenderId) {
      this.lastSender = refForId(id);
      this.lastSenderId = id;
    }
    return this.lastSender;
  }
  // Only ever cleared (an async hook settled): no sender from then on.
  set sender(ref) {
    this.senderId = 0;
  }
}

// Live instances by index (what the core passes at delivery); freed indexes
// are reused, so the table stays as small as the number of live actors.
const instances = [undefined];  // index 0: none
// Their cells by the same index: one array read per message instead of a
// property read on instances of ever other user classes.
const cells = [undefined];
const freeIndexes = [];
// The thrown value or the promise of the delivery that did not just return.
let outcome;

function addInstance(instance) {
  const index = freeIndexes.length > 0 ? freeIndexes.pop() : instances.length;
  instances[index] = instance;
  cells[index] = instance._cell;
  return index;
}

// The core destroyed the C++ side of an incarnation.
export function actorGone(index) {
  instances[index] = undefined;
  cells[index] = undefined;
  freeIndexes.push(index);
}

// One message for an actor, from the core (no embind): instance index, value
// slot, sender ref id (0: none), behaviour slot (-1: onReceive). Answers 0
// (returned), 1 (threw: takeOutcome() is the error) or 2 (returned a promise:
// awaitOutcome() watches it; the sender stays readable until it settles).
export function deliver(index, slot, senderId, behaviour) {
  return deliverValue(index, valueAt(slot), senderId, behaviour);
}

// The same for a value that crossed as itself (a number: no slot).
export function deliverValue(index, message, senderId, behaviour) {
  const instance = instances[index];
  const cell = cells[index];
  cell.senderId = senderId;
  let result;
  try {
    result = behaviour < 0 ? instance.onReceive(message) : valueAt(behaviour).call(instance, message);
    if (result !== undefined && result !== null && typeof result === 'object' && typeof result.then === 'function') {
      outcome = result;
      return 2;
    }
  } catch (thrown) {
    cell.senderId = 0;
    outcome = thrown;
    return 1;
  }
  cell.senderId = 0;
  return 0;
}

export function takeOutcome() {
  const value = outcome;
  outcome = undefined;
  return value;
}

// The promise deliver() answered 2 for holds its actor until it settles.
export function awaitOutcome(index, completionKey) {
  awaitHook(instances[index], takeOutcome(), completionKey);
}

// Build the JS instance for a core actor incarnation (called by the C++
// adapter): { instance, index }.
export function constructActor(system, key, actorClass, selfId, selfPath) {
  const cell = new Cell(key, system, refFor(selfId, selfPath));
  const previous = constructing;
  constructing = cell;
  try {
    const isClass = actorClass.prototype instanceof Actor || actorClass === Actor;
    const instance = isClass ? new actorClass() : actorClass();
    if (!(instance instanceof Actor)) {
      throw new TypeError(`an actor factory must return an Actor instance, got ${String(instance)}`);
    }
    instance._cell = cell;
    return { instance, index: addInstance(instance) };
  } finally {
    constructing = previous;
  }
}

// Run one lifecycle hook of an instance for the core (messages go through
// deliver()): undefined when it returned normally, { thrown } when it threw,
// { promise } when it returned a thenable.
export function invokeActor(instance, hook, a, b) {
  try {
    let result;
    switch (hook) {
      case 'preStart':
        result = instance.preStart();
        break;
      case 'postStop':
        result = instance.postStop();
        break;
      case 'preRestart':
        result = instance.preRestart(a, b);
        break;
      case 'postRestart':
        result = instance.postRestart(a);
        break;
      default:
        throw new Error(`unknown actor hook ${hook}`);
    }
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      return { promise: result };
    }
    return undefined;
  } catch (thrown) {
    return { thrown };
  }
}

// An async hook settles: tell the core so the actor takes its next message
// (receive, preStart and postRestart hold it; a rejected preStart or
// postRestart is a failed start, an ActorInitializationError for supervision).
// Key 0: postStop's or preRestart's promise, which cannot hold the actor; its
// rejection is logged rather than lost.
export function awaitHook(instance, promise, completionKey) {
  const cell = instance._cell;
  if (completionKey === 0) {
    Promise.resolve(promise).catch((error) => cell.log.error('an async lifecycle hook failed:', error));
    return;
  }
  Promise.resolve(promise).then(
    () => {
      cell.sender = null;
      core.completionSettle(completionKey, true, undefined);
    },
    (error) => {
      cell.sender = null;
      core.completionSettle(completionKey, false, error);
    },
  );
}
