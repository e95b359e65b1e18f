// Actor: the base class of JS actors, and the per-incarnation cell the core's
// C++ adapter drives. The core decides when hooks run (one message at a time,
// system messages first, supervision); this file only maps them onto JS.
import { core } from './core_loader.js';
import { check } from './errors.js';
import { refArg, refFor } from './actor_ref.js';
import { Logger } from './logger.js';
import { defaultStrategy } from './supervision.js';

// The cell whose actor is being constructed, so `this.self` etc. work in a
// constructor (set by constructActor around the `new`).
let constructing = null;

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

// Build the JS instance for a core actor incarnation (called by the C++ adapter).
export function constructActor(system, key, actorClass, selfId, selfPath) {
  const cell = {
    key,
    system,
    self: refFor(selfId, selfPath),
    sender: null,
    log: null,
    context: null,
  };
  cell.log = new Logger(system, key);
  cell.context = new ActorContext(cell);
  const previous = constructing;
  constructing = cell;
  try {
    const isClass = actorClass.prototype instanceof Actor || actorClass === Actor;
    const instance = isClass ? new actorClass() : actorClass();
    if (!(instance instanceof Actor)) {
      throw new TypeError(`an actor factory must return an Actor instance, got ${String(instance)}`);
    }
    instance._cell = cell;
    return instance;
  } finally {
    constructing = previous;
  }
}

// Run one hook of an instance for the core: undefined when it returned
// normally, { thrown } when it threw, { promise } when it returned a thenable.
export function invokeActor(instance, hook, a, b, senderIdValue, senderPath) {
  const cell = instance._cell;
  try {
    let result;
    switch (hook) {
      case 'receive': {
        // b: a become() behaviour, or undefined for onReceive.
        cell.sender = refFor(senderIdValue, senderPath);
        result = typeof b === 'function' ? b.call(instance, a) : instance.onReceive(a);
        break;
      }
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
    if (hook === 'receive') cell.sender = null;
    return undefined;
  } catch (thrown) {
    if (hook === 'receive') cell.sender = null;
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
